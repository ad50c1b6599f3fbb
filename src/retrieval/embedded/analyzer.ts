import { stemmer } from "stemmer";

/**
 * How the embedded index reads text: words of letters and digits, lower-cased,
 * accents removed, Porter-stemmed (as SQLite's `porter unicode61
 * remove_diacritics 2` tokenizer did). Queries go through the same steps.
 */
const WORD = /[\p{L}\p{N}]+/gu;
const NON_ASCII = /[^\x00-\x7f]/;
const MARKS = /\p{M}+/gu;
const stems = new Map<string, string>();

/** Lower-cased, with accents removed. */
export function fold(text: string): string {
  return NON_ASCII.test(text) ? text.normalize("NFD").replace(MARKS, "").toLowerCase() : text.toLowerCase();
}

/** The Porter stem of a folded word (cached: documentation repeats its words). */
export function stemOf(word: string): string {
  // A "word" this long is no word: kept as it is, and not cached (a caller's could be megabytes).
  if (word.length > 64) return word;
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stems.size >= 200_000) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

/** Calls `each` with the stem of every word of `text`, in order. */
export function forEachTerm(text: string, each: (term: string) => void): void {
  if (!text) return;
  for (const match of fold(text).matchAll(WORD)) each(stemOf(match[0]));
}
