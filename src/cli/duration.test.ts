import { describe, expect, it } from "vitest";
import { parseDuration } from "./duration.ts";

describe("parseDuration", () => {
  it("reads minutes, hours and days", () => {
    expect(parseDuration("90m")).toBe(90 * 60_000);
    expect(parseDuration("12h")).toBe(12 * 3_600_000);
    expect(parseDuration("30d")).toBe(30 * 86_400_000);
    expect(parseDuration(" 1d ")).toBe(86_400_000);
    expect(parseDuration("36500d")).toBe(36_500 * 86_400_000);
  });

  it("refuses anything else", () => {
    for (const bad of ["", "30", "d", "0d", "00d", "-1d", "1.5h", "1y", "1w", "30s", "30D", "1d2h", "36501d", "999999999d", "1e3m"]) {
      expect(parseDuration(bad), bad).toBeNull();
    }
  });
});
