import { stemmer } from "stemmer";
import type { TextAnalyzer } from "../core/text-analyzer.ts";

/**
 * The one analyzer (see core/text-analyzer.ts): words of letters and digits,
 * lower-cased, accents removed, Porter-stemmed — as SQLite's `porter unicode61
 * remove_diacritics 2` tokenizer read text when the index was FTS5, so stored
 * segments and questions agree.
 */
const WORD = /[\p{L}\p{N}]+/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, to skip normalising plain text
const NON_ASCII = /[^\x00-\x7f]/;
const MARKS = /\p{M}+/gu;

const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing don done down during each either else ever every few for from further get gets got had has have having " +
    "he her here hers him his how i if in into is it its itself just let like ll many may me might mine more most much must my " +
    "need no nor not now of off on once one only or other our ours out over own please re really same shall she should so some " +
    "such tell than that the their theirs them then there these they thing things this those through to too under until up upon us " +
    "use used using ve very via want wants was way ways we were what when where whether which while who whom whose why will with " +
    "within without would yes yet you your yours " +
    // What a negative contraction leaves once the apostrophe splits it ("doesn't" → "doesn", "t"), as "don" above.
    "aren couldn didn doesn hadn hasn haven isn mightn mustn needn shan shouldn wasn weren wouldn"
  ).split(" "),
);

/** Lower-cased, with accents removed. */
function fold(text: string): string {
  return NON_ASCII.test(text) ? text.normalize("NFD").replace(MARKS, "").toLowerCase() : text.toLowerCase();
}

const stems = new Map<string, string>();

export const englishAnalyzer: TextAnalyzer = {
  words(text) {
    if (!text) return [];
    return fold(text).match(WORD) ?? [];
  },
  // Cached: documentation repeats its words.
  term(word) {
    // A "word" this long is no word: kept as it is, and not cached (a caller's could be megabytes).
    if (word.length > 64) return word;
    let stem = stems.get(word);
    if (stem === undefined) {
      stem = stemmer(word);
      if (stems.size >= 200_000) stems.clear();
      stems.set(word, stem);
    }
    return stem;
  },
  isStopWord: (word) => STOP_WORDS.has(word),
};
