import type { Embedder } from "../core/embedder.ts";
import type { RetrievedChunk, Retriever, VectorSearch } from "../core/retriever.ts";
import { makeTermMatcher, type TextAnalyzer } from "../core/text-analyzer.ts";
import { identifierParts } from "./embedded/identifier-parts.ts";

export type RetrievalMode = "lexical" | "vector" | "hybrid";

/**
 * The question as embedded, at most: embedding models read a few thousand tokens (OpenAI's
 * 8,191) and refuse a longer input rather than cut it. A question's opening says what it asks.
 */
export const MAX_EMBEDDED_CHARS = 8192;

const identity = (c: RetrievedChunk) => c.key ?? `${c.url}\u0000${c.text}`;

/** Scales a list's scores to 0..1 (best = 1), as relative-score fusion does. */
function relative(chunks: RetrievedChunk[]): Map<string, { chunk: RetrievedChunk; score: number }> {
  const scores = chunks.map((c) => c.score);
  const min = Math.min(...scores);
  const span = Math.max(...scores) - min || 1;
  return new Map(chunks.map((c) => [identity(c), { chunk: c, score: (c.score - min) / span }]));
}

/**
 * Vector or hybrid retrieval over a lexical retriever and a vector search:
 * the query is embedded, and in hybrid mode both lists are fused by relative
 * score, `alpha` weighing the vector side. Lexical remains the default mode:
 * published figures show naive fusion can lose to either side alone, so
 * hybrid is opt-in until the eval shows it helps.
 */
export function makeHybridRetriever({
  lexical,
  vectorSearch,
  embedder,
  mode,
  alpha,
  analyzer,
}: {
  lexical: Retriever;
  vectorSearch: VectorSearch;
  embedder: Embedder;
  mode: RetrievalMode;
  alpha: number;
  /** Reads vector hits for the question's terms as the lexical index reads passages. */
  analyzer: TextAnalyzer;
}): Retriever {
  if (mode === "lexical") return lexical;
  return async (options) => {
    const [lex, [vector]] = await Promise.all([
      lexical(options),
      embedder.embed([options.query.slice(0, MAX_EMBEDDED_CHARS)], { abortSignal: options.signal }),
    ]);
    options.signal?.throwIfAborted();
    const found = await vectorSearch(vector!, options.sourceIds, options.limit);
    // Vector hits get the same term evidence as lexical ones, so pages rank and abstain alike.
    const matcher = makeTermMatcher(
      analyzer,
      lex.terms.map((t) => t.term),
    );
    const vec = found.map((c) => ({
      ...c,
      similarity: c.score,
      matched: matcher(`${c.title} ${c.section} ${c.text} ${identifierParts(c.text)}`),
      titleMatched: matcher(`${c.title} ${c.url.slice(c.url.lastIndexOf("/") + 1).replace(/\.[a-z]+$/, "")}`),
      headingMatched: matcher(`${c.section} ${identifierParts(c.section)}`),
    }));
    if (mode === "vector") return { chunks: vec, terms: lex.terms, matches: matcher };
    const a = relative(lex.chunks);
    const b = relative(vec);
    const fused = new Map<string, RetrievedChunk>();
    for (const key of new Set([...a.keys(), ...b.keys()])) {
      const chunk = { ...(a.get(key) ?? b.get(key))!.chunk, similarity: b.get(key)?.chunk.similarity };
      fused.set(key, { ...chunk, score: (1 - alpha) * (a.get(key)?.score ?? 0) + alpha * (b.get(key)?.score ?? 0) });
    }
    const chunks = [...fused.values()].sort((x, y) => y.score - x.score).slice(0, options.limit);
    return { chunks, terms: lex.terms, matches: matcher };
  };
}
