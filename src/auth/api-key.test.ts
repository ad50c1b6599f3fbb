import { describe, expect, it } from "vitest";
import { generateApiKey, hashKey, keyLookup, keyMatches, looksLikeKey } from "./api-key.ts";

describe("api keys", () => {
  it("are dk_-prefixed 256-bit random secrets", () => {
    const keys = new Set(Array.from({ length: 100 }, generateApiKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(looksLikeKey(key)).toBe(true);
    expect(keyLookup([...keys][0]!)).toHaveLength(11);
  });

  it("match only their own hash", () => {
    const key = generateApiKey();
    expect(keyMatches(key, hashKey(key))).toBe(true);
    expect(keyMatches(generateApiKey(), hashKey(key))).toBe(false);
    expect(keyMatches(key, "abcd")).toBe(false);
    expect(hashKey(key)).not.toContain(key.slice(3));
  });
});
