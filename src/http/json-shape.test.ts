import { describe, expect, it } from "vitest";
import { jsonShapeProblem } from "./json-shape.ts";

const limits = { maxDepth: 3, maxValues: 10 };

describe("jsonShapeProblem", () => {
  it("measures depth by brackets outside strings", () => {
    expect(jsonShapeProblem(`{"a":[[1]]}`, limits)).toBeNull();
    expect(jsonShapeProblem(`{"a":[[[1]]]}`, limits)).toBe("depth");
    // Brackets, escaped quotes and backslashes inside strings are text.
    expect(jsonShapeProblem(`{"a":"[[[[{{{{ \\" [[[[ \\\\"}`, limits)).toBeNull();
    expect(jsonShapeProblem(`["\\\\",[[[1]]]]`, limits)).toBe("depth");
  });

  it("counts values: strings, brackets and the values after commas", () => {
    expect(jsonShapeProblem(`[1,2,3,4,5,6,7,8,9]`, limits)).toBeNull();
    expect(jsonShapeProblem(`[1,2,3,4,5,6,7,8,9,10,11]`, limits)).toBe("values");
    expect(jsonShapeProblem(`{"a":"b","c":"d","e":"f","g":"h","i":"j"}`, limits)).toBe("values");
  });

  it("stops at the first excess, so a huge body costs little", () => {
    expect(jsonShapeProblem("[".repeat(5_000_000))).toBe("depth");
    expect(jsonShapeProblem(`"${"x".repeat(1_000_000)}"`)).toBeNull();
    expect(jsonShapeProblem(`"unterminated`)).toBeNull();
  });
});
