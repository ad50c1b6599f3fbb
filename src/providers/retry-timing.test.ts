import { describe, expect, it } from "vitest";
import { backoffMs, retryAfterSeconds, retryDelayMs } from "./retry-timing.ts";

describe("retryAfterSeconds", () => {
  it("reads retry-after-ms before retry-after, from Headers or a plain object", () => {
    expect(retryAfterSeconds(new Headers({ "retry-after-ms": "1500", "retry-after": "9" }))).toBe(1.5);
    expect(retryAfterSeconds(new Headers({ "retry-after": "3" }))).toBe(3);
    expect(retryAfterSeconds({ "retry-after": "2" })).toBe(2);
  });

  it("turns an HTTP date into seconds from now, and ignores what it cannot read", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(retryAfterSeconds(new Headers({ "retry-after": "Sun, 22 Nov 2026 10:00:30 GMT" }), now)).toBe(30);
    expect(retryAfterSeconds(new Headers({ "retry-after": "soon" }))).toBeNull();
    expect(retryAfterSeconds(new Headers())).toBeNull();
    expect(retryAfterSeconds(undefined)).toBeNull();
  });
});

describe("retry delays", () => {
  it("double from 0.5 s up to 8 s, with half of each wait random", () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffMs(n, () => 1))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect([0, 1, 2].map((n) => backoffMs(n, () => 0))).toEqual([250, 500, 1000]);
  });

  it("never wait less than the provider asked for", () => {
    expect(retryDelayMs(0, 3, () => 1)).toBe(3000);
    expect(retryDelayMs(3, 0.1, () => 1)).toBe(4000);
    expect(retryDelayMs(0, null, () => 0)).toBe(250);
  });
});
