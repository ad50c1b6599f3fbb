import { describe, expect, it } from "vitest";
import { parseDay, parseSince } from "./since.ts";

describe("parseSince", () => {
  const now = new Date("2026-11-22T12:00:00.000Z");
  it("reads spans back from now and UTC dates", () => {
    expect(parseSince("7d", now)?.toISOString()).toBe("2026-11-15T12:00:00.000Z");
    expect(parseSince("24h", now)?.toISOString()).toBe("2026-11-21T12:00:00.000Z");
    expect(parseSince("2w", now)?.toISOString()).toBe("2026-11-08T12:00:00.000Z");
    expect(parseSince(" 2026-11-01 ", now)?.toISOString()).toBe("2026-11-01T00:00:00.000Z");
  });
  it("refuses anything else", () => {
    for (const bad of ["", "7", "0d", "-1d", "1.5d", "7 days", "7y", "3651d", "2026-02-30", "2026-13-01", "26-11-01", "2026-11-01T00:00:00Z"]) {
      expect(parseSince(bad, now), bad).toBeNull();
    }
    expect(parseDay("2024-02-29")?.toISOString()).toBe("2024-02-29T00:00:00.000Z");
  });
});
