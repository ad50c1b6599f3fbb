/**
 * How docent reads text, as a port: the index, the question, coverage and
 * the offline generator all go through one analyzer, so a word means the same
 * thing everywhere (two stemmers would make "indexes" match in one place and
 * not in another). The implementation (tokenizer, stemmer, stop words) lives
 * outside the core and is wired in app-services.
 */
export interface TextAnalyzer {
  /** The words of a text, in order: runs of letters and digits, lower-cased, accents removed (`Node.js` → node, js). */
  words(text: string): string[];
  /** The term a word is matched on (its stem): `indexes` and `index` are one term. Takes a word as `words` gives it. */
  term(word: string): string;
  /** Words too common to tell a question's subject (`how`, `the`, `use`). Takes a word as `words` gives it. */
  isStopWord(word: string): boolean;
}

/**
 * A question's words worth searching for: stop words and one-letter words
 * dropped, each once, at most `max`. Enough for a question told with its
 * context, whose ask often comes last ("…, I need one row per day. How do I
 * produce the list of dates?"); a bound, so a hostile question of thousands
 * of words costs what 32 cost.
 */
export const MAX_QUERY_WORDS = 32;

export function queryWords(analyzer: TextAnalyzer, text: string, max = MAX_QUERY_WORDS): string[] {
  const out: string[] = [];
  for (const word of analyzer.words(text)) {
    if (word.length < 2 || analyzer.isStopWord(word) || out.includes(word)) continue;
    out.push(word);
    if (out.length >= max) break;
  }
  return out;
}

/** The distinct terms of a text's content words (stop words and one-letter words dropped), in order of first appearance (the first `max`). */
export function contentTerms(analyzer: TextAnalyzer, text: string, max = Infinity): string[] {
  const seen = new Set<string>();
  for (const word of analyzer.words(text)) {
    if (word.length < 2 || analyzer.isStopWord(word)) continue;
    seen.add(analyzer.term(word));
    if (seen.size >= max) break;
  }
  return [...seen];
}

/**
 * Finds which of the given terms a text holds, reading it as the index does.
 * Only words that share a term's first two letters are stemmed (a stem keeps
 * its word's first two letters: `cry` → `cri`, `uses` → `us`), so it stays
 * cheap on long texts.
 */
export function makeTermMatcher(analyzer: TextAnalyzer, terms: readonly string[]): (text: string) => string[] {
  const byPrefix = new Map<string, string[]>();
  for (const term of terms) {
    const key = term.slice(0, 2);
    byPrefix.set(key, [...(byPrefix.get(key) ?? []), term]);
  }
  const wanted = new Set(terms).size;
  return (text) => {
    const found = new Set<string>();
    for (const word of analyzer.words(text)) {
      const candidates = byPrefix.get(word.slice(0, 2));
      if (!candidates) continue;
      const term = analyzer.term(word);
      if (candidates.includes(term)) found.add(term);
      if (found.size === wanted) break;
    }
    return [...found];
  };
}

/**
 * How many times a text says each of the given terms, as `queryWords` reads
 * it (stop words and one-letter words are not counted: `uses`, `used` and
 * `using` all stem to `us`). Only words sharing a term's first two letters
 * are stemmed, as in `makeTermMatcher`. A term the text never says counts 0.
 */
export function termCounts(analyzer: TextAnalyzer, text: string, terms: readonly string[]): number[] {
  const counts = new Map(terms.map((term) => [term, 0]));
  const prefixes = new Set(terms.map((term) => term.slice(0, 2)));
  for (const word of analyzer.words(text)) {
    if (word.length < 2 || !prefixes.has(word.slice(0, 2)) || analyzer.isStopWord(word)) continue;
    const term = analyzer.term(word);
    const count = counts.get(term);
    if (count !== undefined) counts.set(term, count + 1);
  }
  return terms.map((term) => counts.get(term)!);
}
