import { isEnglishWord } from "../english-words.ts";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
/** Longer "words" are not corrected: a word of n letters has ~54n neighbours, and no misspelt word is this long. */
const MAX_CORRECTED = 32;

/** Every string one edit away from a word: a letter deleted, swapped with the next, replaced or inserted. */
export function oneEditAway(word: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of LETTERS) {
      if (tail) out.add(head + letter + tail.slice(1));
      out.add(head + letter + tail);
    }
  }
  out.delete(word);
  return out;
}

/**
 * The correction of a misspelt question word: a word that no passage holds
 * and English does not know ("vacum", "pyhton") becomes its one-edit neighbour
 * that the most passages hold ("vacuum", "python"). An English word the
 * documentation lacks ("tulip", "yolk") stays as asked: it tells that the
 * question is about something the sources do not cover.
 */
export function correctSpelling(word: string, passagesHolding: (word: string) => number): string | undefined {
  if (word.length < 4 || word.length > MAX_CORRECTED || !/^[a-z]+$/.test(word) || isEnglishWord(word)) return undefined;
  let best: string | undefined;
  let most = 0;
  for (const candidate of oneEditAway(word)) {
    const count = passagesHolding(candidate);
    if (count > most) {
      best = candidate;
      most = count;
    }
  }
  return best;
}
