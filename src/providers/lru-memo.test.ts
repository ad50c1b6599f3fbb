import { describe, expect, it } from "vitest";
import { lruMemo } from "./lru-memo.ts";

describe("lruMemo", () => {
  it("computes a key once and evicts the least recently used beyond its size", () => {
    const calls: string[] = [];
    const length = lruMemo(2, (key) => {
      calls.push(key);
      return key.length;
    });
    expect([length("a"), length("bb"), length("a")]).toEqual([1, 2, 1]);
    expect(calls).toEqual(["a", "bb"]);
    length("ccc"); // evicts "bb", the least recently used
    length("a");
    length("bb");
    expect(calls).toEqual(["a", "bb", "ccc", "bb"]);
  });
});
