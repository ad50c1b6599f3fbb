import fs from "node:fs";
import { describe, expect, it } from "vitest";
import wordListPath from "word-list";
import { isEnglishWord } from "./english-words.ts";

describe("isEnglishWord", () => {
  it("finds every word of the list, first and last included", () => {
    const words = fs.readFileSync(wordListPath, "utf8").split("\n").filter(Boolean);
    expect(words.length).toBeGreaterThan(270_000);
    expect(words.filter((w) => !isEnglishWord(w))).toEqual([]);
  });

  it("answers as a Set of the list does for every word's prefixes (a probe can land on a longer word)", () => {
    const words = fs.readFileSync(wordListPath, "utf8").split("\n").filter(Boolean);
    const set = new Set(words);
    const wrong = words.flatMap((w) => [w.slice(0, -1), w.slice(0, -2)]).filter((p) => isEnglishWord(p) !== set.has(p));
    expect(wrong).toEqual([]);
  });

  it("refuses prefixes, extensions, joined lines and the empty word", () => {
    // "aa" and "aah" are words; "a" (a prefix of both) and "aahx" are not lines of the list.
    for (const word of ["", "a", "aahe", "aahx", "zzzsx", "pyhton", "vacum", "indx", "aa\naah", "zzz\n", "\n"])
      expect(isEnglishWord(word), JSON.stringify(word)).toBe(false);
  });
});
