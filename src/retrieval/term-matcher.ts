import { stemmer } from "stemmer";

/** Porter stems, as SQLite's `porter` tokenizer makes them. */
export const porterStem = (word: string) => stemmer(word.toLowerCase());

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Finds which query stems occur in a text, stemming only the words that
 * could match (those sharing a stem's first letters), so it stays cheap.
 */
export function makeTermMatcher(stems: readonly string[]) {
  const byPrefix = new Map<string, string[]>();
  for (const stem of stems) {
    const key = stem.slice(0, 3);
    byPrefix.set(key, [...(byPrefix.get(key) ?? []), stem]);
  }
  return (text: string): string[] => {
    const found = new Set<string>();
    for (const match of text.toLowerCase().matchAll(WORD)) {
      const word = match[0];
      const candidates = byPrefix.get(word.slice(0, 3));
      if (!candidates) continue;
      const stem = porterStem(word);
      if (candidates.includes(stem)) found.add(stem);
      if (found.size === stems.length) break;
    }
    return [...found];
  };
}
