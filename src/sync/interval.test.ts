import { describe, expect, it } from "vitest";
import { formatInterval, parseInterval } from "./interval.ts";

describe("sync intervals", () => {
  it("reads seconds, minutes, hours and days, and off", () => {
    expect(parseInterval("45s")).toBe(45);
    expect(parseInterval("30m")).toBe(1800);
    expect(parseInterval(" 24h ")).toBe(86_400);
    expect(parseInterval("7d")).toBe(604_800);
    expect(parseInterval("off")).toBe(0);
    expect(parseInterval("0")).toBe(0);
  });
  it("refuses anything else", () => {
    for (const bad of ["", "24", "1.5h", "-1h", "1w", "0h", "366d", "h"]) expect(parseInterval(bad)).toBeNull();
  });
  it("prints the largest unit that divides it", () => {
    expect(formatInterval(86_400)).toBe("1d");
    expect(formatInterval(7200)).toBe("2h");
    expect(formatInterval(90)).toBe("90s");
    expect(formatInterval(0)).toBe("off");
  });
});
