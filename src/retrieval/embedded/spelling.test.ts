import { describe, expect, it } from "vitest";
import { isEnglishWord } from "../english-words.ts";
import { correctSpelling, oneEditAway } from "./spelling.ts";

describe("spelling", () => {
  it("lists every word one deletion, swap, replacement or insertion away", () => {
    const near = oneEditAway("ab");
    expect(near.has("a")).toBe(true); // deletion
    expect(near.has("ba")).toBe(true); // swap
    expect(near.has("xb")).toBe(true); // replacement
    expect(near.has("abc")).toBe(true); // insertion
    expect(near.has("ab")).toBe(false);
    expect(near.has("ba" + "c")).toBe(false); // two edits
  });

  it("knows English words, not typos", () => {
    expect(["tulip", "yolk", "plant", "moons"].every(isEnglishWord)).toBe(true);
    expect(["vacum", "pyhton", "indx"].some(isEnglishWord)).toBe(false);
  });

  it("corrects a word neither the documentation nor English knows to its most held neighbour", () => {
    const held = new Map([
      ["vacuum", 300],
      ["vacua", 2],
      ["plan", 500],
      ["york", 12],
    ]);
    const holding = (word: string) => held.get(word) ?? 0;
    expect(correctSpelling("vacum", holding)).toBe("vacuum");
    // English words stay as asked, however close a documented word is: "plant" is not a misspelt "plan".
    expect(correctSpelling("plant", holding)).toBeUndefined();
    expect(correctSpelling("yolk", holding)).toBeUndefined();
    // Short words, and words with digits, are not guessed at.
    expect(correctSpelling("vcm", holding)).toBeUndefined();
    expect(correctSpelling("vacum2", holding)).toBeUndefined();
    expect(correctSpelling("zzzzqq", holding)).toBeUndefined();
  });

  it("does not try to correct a 'word' no one could have misspelt (100,000 letters have 5 million neighbours)", () => {
    const asked: string[] = [];
    const holding = (word: string) => {
      asked.push(word);
      return 0;
    };
    expect(correctSpelling("a".repeat(100_000), holding)).toBeUndefined();
    expect(correctSpelling("x".repeat(33), holding)).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
