import type { ModelSourceChoice, SourceCandidate } from "./model-source-choice.ts";
import { type RankedPage, rankPages } from "./rank-pages.ts";
import type { RetrievalResult, Retriever } from "./retriever.ts";
import { setAsideTerms } from "./set-aside-phrases.ts";
import type { SourceInfo } from "./source-catalog.ts";
import { type IsWord, mentionedSources, withoutSourceNames } from "./source-names.ts";
import type { TextAnalyzer } from "./text-analyzer.ts";

export interface Selection {
  sources: SourceInfo[];
  /** The caller or the question named the sources (the question is taken to be about them). */
  named?: boolean;
  /** Named only because the caller can see one source and did not name it (see coversQuestion). */
  soleSource?: boolean;
  pages: RankedPage[];
  /** The query terms a text holds, as the retriever read the question (see `RetrievalResult.matches`). */
  matches?: RetrievalResult["matches"];
  /** The question's words as the retriever read them, over the sources searched. */
  terms?: RetrievalResult["terms"];
  /** Set when a language model was asked and answered (its ids are empty when the retrieval's choice stood). */
  choice?: ModelSourceChoice;
}

/** Sources whose evidence is within this share of the best one's are contenders a model may be asked to choose among. */
const CONTENDER_SHARE = 0.75;

/**
 * The agent's choice of sources: sources the question names win; then one
 * search over the candidates, keeping the sources whose best pages rank close
 * to the best source's, so a question about one product does not leak into
 * another that documents the same topic. When several sources contend and a
 * `choose` function is given (a language model), it decides among them.
 */
export async function selectSources(
  query: string,
  catalog: readonly SourceInfo[],
  retrieve: Retriever,
  {
    limit,
    closeness = 0.9,
    maxSources = 2,
    choose,
    analyzer,
    isWord,
    wholeIndex = true,
    signal,
  }: {
    limit: number;
    closeness?: number;
    maxSources?: number;
    choose?: (candidates: SourceCandidate[]) => Promise<ModelSourceChoice | null>;
    /** How names in the question are read (see source-names.ts). */
    analyzer: TextAnalyzer;
    isWord?: IsWord;
    /** False when the catalog is a caller's scope, not every source in the index: then the search is filtered to it. */
    wholeIndex?: boolean;
    signal?: AbortSignal;
  },
): Promise<Selection> {
  if (catalog.length === 0) return { sources: [], pages: [] };
  const named = mentionedSources(query, catalog, { analyzer, isWord });
  const candidates = named.length > 0 ? named : catalog;
  const searched = named.length > 0 ? withoutSourceNames(query, named, { analyzer, isWord }) : query;
  // Searching the whole catalog needs no source filter (a long one costs time); chunks the catalog
  // does not know (a source whose removal is still under way) are dropped after.
  const known = new Set(candidates.map((s) => s.id));
  const result = await retrieve({ query: searched, sourceIds: named.length > 0 || !wholeIndex ? [...known] : undefined, limit: limit * 2, signal });
  const pages = rankPages({ ...result, chunks: result.chunks.filter((c) => known.has(c.sourceId)) }, { aside: setAsideTerms(searched, result.matches) });
  // A source's evidence is its three best pages, not one lucky page.
  const perSource = new Map<string, number[]>();
  for (const page of pages) {
    const scores = perSource.get(page.sourceId) ?? [];
    if (scores.length < 3) scores.push(page.score);
    perSource.set(page.sourceId, scores);
  }
  const evidence = [...perSource.entries()]
    .map(([id, scores]) => [id, (scores[0]! + (scores[1] ?? 0) + (scores[2] ?? 0)) / 3] as const)
    .sort((a, b) => b[1] - a[1]);
  const top = evidence[0]?.[1] ?? 0;
  let modelChoice: ModelSourceChoice | undefined;
  const contenders = evidence.filter(([, score]) => score >= top * CONTENDER_SHARE).slice(0, 4);
  if (choose && named.length === 0 && contenders.length >= 2) {
    const byId = new Map(candidates.map((s) => [s.id, s]));
    const choice = await choose(contenders.map(([id]) => ({ source: byId.get(id)!, pages: pages.filter((p) => p.sourceId === id) })));
    if (choice && choice.ids.length > 0) {
      const ids = new Set(choice.ids.slice(0, maxSources));
      return {
        sources: candidates.filter((s) => ids.has(s.id)),
        named: named.length > 0,
        pages: pages.filter((p) => ids.has(p.sourceId)),
        matches: result.matches,
        terms: result.terms,
        choice,
      };
    }
    modelChoice = choice ?? undefined;
  }
  const chosen = new Set(
    evidence
      .filter(([, score]) => score >= top * closeness)
      .slice(0, maxSources)
      .map(([id]) => id),
  );
  return {
    sources: candidates.filter((s) => chosen.has(s.id)),
    named: named.length > 0,
    pages: pages.filter((p) => chosen.has(p.sourceId)),
    matches: result.matches,
    terms: result.terms,
    ...(modelChoice && { choice: modelChoice }),
  };
}
