import { describe, expect, it } from "vitest";
import { publicDetail } from "./provider-error.ts";

describe("what a provider's error message may tell the caller", () => {
  it("keeps what concerns the request", () => {
    expect(publicDetail("This model's maximum context length is 128000 tokens; your messages resulted in 130012 tokens.")).toBe(
      "This model's maximum context length is 128000 tokens; your messages resulted in 130012 tokens.",
    );
    expect(publicDetail("Invalid value for 'temperature': must be at most 2 (at 12:30)")).toBe("Invalid value for 'temperature': must be at most 2 (at 12:30)");
    // Bracketed labels, a lone `::` and a sentence ending in a capitalised word are not addresses.
    for (const ordinary of ["[type:invalid_request_error] [param:messages] bad [line:3]", "use :: to scope it", "Retry later.Internal errors happen."])
      expect(publicDetail(ordinary)).toBe(ordinary);
  });

  it.each([
    ["upstream connect error to [fd00:ec2::254]:8080 and fe80::1ff:fe23:4567:890a", "upstream connect error to [address] and [address]"],
    ["peer 2001:0db8:85a3:0000:0000:8a2e:0370:7334 or ::1 refused", "peer [address] or [address] refused"],
    ["via vllm-0.inference.svc.cluster.local and db.corp", "via [address] and [address]"],
    ["signed with AKIAIOSFODNN7EXAMPLE", "signed with [redacted]"],
    ["connect ECONNREFUSED 10.0.3.7:443", "connect ECONNREFUSED [address]"],
    ["api_key=sk-abcdef123456 is wrong", "api_key=[redacted] is wrong"],
  ])("cuts addresses and secrets: %s", (message, told) => {
    expect(publicDetail(message)).toBe(told);
  });
});
