import { describe, expect, it } from "vitest";
import { createCitationRenumberer } from "./citations.ts";

describe("citation renumbering", () => {
  it("numbers references by first citation, across split deltas and lists", () => {
    const r = createCitationRenumberer(4);
    const out = ["Use CLUSTER [", "3]. It reorders", " rows [1, 3] and [", "9] is not ours. See [1]"].map((d) => r.push(d)).join("") + r.flush();
    expect(out).toBe("Use CLUSTER [1]. It reorders rows [2, 1] and [9] is not ours. See [2]");
    expect(r.order).toEqual([3, 1]);
  });

  it("holds back only what could still become a marker", () => {
    const r = createCitationRenumberer(2);
    expect(r.push("array[0")).toBe("array");
    expect(r.push("] and x")).toBe("[0] and x");
    expect(r.order).toEqual([]);
  });
});
