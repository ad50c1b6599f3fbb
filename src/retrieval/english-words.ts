import fs from "node:fs";
import wordListPath from "word-list";

let english: Set<string> | undefined;

/** Whether a lower-case word is English (a 274k-word list, loaded on first use: 0.1 s, about 20 MB). */
export function isEnglishWord(word: string): boolean {
  english ??= new Set(fs.readFileSync(wordListPath, "utf8").split("\n"));
  return english.has(word);
}

/** Whether the list is in memory (loaded at a server's start: see warm-up.ts). */
export const englishWordsLoaded = () => english !== undefined;
