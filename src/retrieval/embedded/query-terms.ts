import { ownText } from "../../core/own-text.ts";
import type { QueryTerm } from "../../core/retriever.ts";
import { queryWords, type TextAnalyzer, termCounts } from "../../core/text-analyzer.ts";
import { isEnglishWord } from "../english-words.ts";
import { agentNouns } from "./agent-nouns.ts";
import { FIELD } from "./segment.ts";
import type { SearchTerm } from "./segment-search.ts";
import { type LoadedSegment, packedFreq, postingsCount, postingsOf } from "./segment-store.ts";
import { correctSpelling } from "./spelling.ts";

/**
 * An agent noun of a question's word (`count` → `Counter`) counts at this share
 * of its weight, and only where a title or heading names it: there it names
 * the object that does what the question asks; in running text it is mostly
 * another sense (a committer is a person, not something that commits).
 */
const AGENT_NOUN = { scale: 0.5, fields: FIELD.title | FIELD.heading };

/**
 * A question's first words no passage holds that are tried for a misspelling:
 * each try looks up a few hundred one-edit neighbours (~0.4 ms), and a real
 * question has a typo or two, not a question's worth.
 */
const MAX_SPELLING_TRIES = 8;

/** A word in more than this share of all passages is too common to select candidates by (it still ranks them)… */
const COMMON_SHARE = 0.1;
/** …once the index is large enough for that to matter. */
const GATING_MIN_CHUNKS = 2000;

/**
 * The question's words as the index reads them, each weighed by how rare it
 * is across the whole index (`QueryTerm.weight`, used to judge coverage), and
 * the same terms as searched (which of them select candidates), followed by
 * the agent nouns the index holds; `termMasks` folds a hit's masks back onto the question's terms.
 */
export function queryTerms(query: string, segments: readonly LoadedSegment[], termId: (term: string) => number | undefined, analyzer: TextAnalyzer) {
  let total = 0;
  let words = 0;
  for (const s of segments) {
    total += s.n;
    words += s.tokens;
  }
  /** Weighted occurrences of an interned term over the passages, per weighted word of theirs (`QueryTerm.share`). */
  const shareOf = (id: number | undefined) => {
    if (id === undefined || words === 0) return 0;
    let occurrences = 0;
    for (const s of segments) {
      const range = postingsOf(s, id);
      if (range) for (let k = range[0]; k < range[1]; k++) occurrences += packedFreq(s.weights[k]!);
    }
    return occurrences / words;
  };
  const terms: Array<QueryTerm & { id: number | undefined; df: number }> = [];
  const passagesHolding = (stem: string) => {
    const id = termId(stem);
    let df = 0;
    if (id !== undefined) for (const s of segments) df += postingsCount(s, id);
    return df;
  };
  let tries = 0;
  const asked: string[] = [];
  for (const written of queryWords(analyzer, query)) {
    let word = written;
    let term = analyzer.term(word);
    const askedTerm = term;
    // A misspelt word ("vacum") is searched as the word the documentation most likely means ("vacuum").
    if (passagesHolding(term) === 0 && tries++ < MAX_SPELLING_TRIES) {
      const corrected = correctSpelling(word, (candidate) => passagesHolding(analyzer.term(candidate)));
      if (corrected) [word, term] = [corrected, analyzer.term(corrected)];
    }
    if (terms.some((t) => t.term === term)) continue;
    asked.push(askedTerm);
    const df = passagesHolding(term);
    const id = termId(term);
    terms.push({ term, text: word, id, df, weight: Math.log(1 + (total - df + 0.5) / (df + 0.5)), share: df > 0 ? shareOf(id) : 0 });
  }
  // A word no passage contains: an English word the documentation lacks ("cheetah") weighs as
  // BM25 weighs a term no passage holds, the most of any: the question is about something the
  // sources never mention. Anything else (a typo spelling could not fix, an identifier) weighs as
  // the rarest known word: enough to mark an off-topic question, not so much that it sinks a good answer.
  const rarest = Math.max(1, ...terms.filter((t) => t.df > 0).map((t) => t.weight));
  const absent = Math.log(1 + (total + 0.5) / 0.5);
  // Only in an index large enough that a plain English word is missing for a reason (see GATING_MIN_CHUNKS).
  const large = total >= GATING_MIN_CHUNKS;
  for (const t of terms) if (t.df === 0) t.weight = large && isEnglishWord(t.text) ? absent : rarest;
  // In a large index, candidates come from the telling words; very common ones only rank them.
  const known = terms.filter((t) => t.df > 0);
  const telling = large ? known.filter((t) => t.df <= total * COMMON_SHARE) : known;
  const selectors = new Set(telling.length > 0 ? telling : [...known].sort((a, b) => a.df - b.df).slice(0, 2));
  // A long question tells a story around what it asks, and the words it comes back to ("connection" three
  // times beside one "thin wrapper") are what it is about: a term counts in the ranking as often as the
  // question says it in its own words (BM25's query term frequency, linear as in FTS5 and Lucene; once when
  // said only in code, where names repeat because code repeats them), not in coverage, which asks how much
  // of what was said a passage holds.
  const said = termCounts(analyzer, ownText(query), asked).map((count) => Math.max(1, count));
  const search: SearchTerm[] = terms.map((t, i) => ({ id: t.id, selects: selectors.has(t), scale: said[i]! }));
  const aliasOf: number[] = [];
  terms.forEach((t, i) => {
    for (const noun of agentNouns(t.text)) {
      const stem = analyzer.term(noun);
      const id = stem === t.term ? undefined : termId(stem);
      if (id === undefined || search.some((s) => s.id === id)) continue;
      search.push({ id, selects: false, ...AGENT_NOUN, scale: AGENT_NOUN.scale * said[i]! });
      aliasOf.push(i);
    }
  });
  /** Per query term, the fields of a hit holding it, counting a title or heading that names its agent noun. */
  const termMasks = (masks: readonly number[]) => {
    const merged = masks.slice(0, terms.length);
    aliasOf.forEach((term, k) => {
      merged[term]! |= masks[terms.length + k]! & AGENT_NOUN.fields;
    });
    return merged;
  };
  return { terms, search, termMasks };
}
