import type { PageLink, RetrievalResult, RetrievedChunk } from "./retriever.ts";

/** A page as a candidate reference: its best passages and how well it answers. */
export interface RankedPage {
  url: string;
  /** The anchor of the page's best passage, "" when unknown. */
  anchor: string;
  title: string;
  sourceId: string;
  score: number;
  /** Share of the question's (weighted) terms that the page's best-covering passage contains. */
  coverage: number;
  /** Best cosine similarity of its passages to the question (0 when none was found by meaning). */
  similarity: number;
  /** The page's passages, best first. */
  chunks: RetrievedChunk[];
  /** Pages of its source that the page's best-scoring passage links to. */
  links: readonly PageLink[];
}

/**
 * Evidence weights. A passage counts by its retrieval score relative to the
 * best and by how much of the question it covers; a page whose title or file
 * name names the question's terms gains most (reference pages are named after
 * their subject), and a section heading that names them gains too.
 */
const WEIGHTS = { relevance: 0.4, coverage: 0.3, title: 0.5, heading: 0.2 };

/** Ranks pages from passages, rare words weighing more (see WEIGHTS). */
export function rankPages({ chunks, terms }: RetrievalResult): RankedPage[] {
  if (chunks.length === 0) return [];
  const weight = new Map(terms.map((t) => [t.term, t.weight]));
  const total = terms.reduce((sum, t) => sum + t.weight, 0) || 1;
  const share = (found: readonly string[]) => found.reduce((sum, term) => sum + (weight.get(term) ?? 0), 0) / total;
  const top = Math.max(...chunks.map((c) => c.score)) || 1;

  const pages = new Map<string, RankedPage>();
  // Each page's best passage score, apart from the page (an object rest copy per page costs more than the ranking).
  const best = new Map<string, number>();
  for (const chunk of chunks) {
    // A passage found by meaning covers the question as far as its similarity says, whatever its words.
    const lexical = Math.max(share(chunk.matched), chunk.coverage ?? 0);
    const similarity = chunk.similarity ?? 0;
    const coverage = Math.max(lexical, similarity);
    const chunkScore = WEIGHTS.relevance * (chunk.score / top) + WEIGHTS.coverage * coverage + WEIGHTS.heading * share(chunk.headingMatched);
    let page = pages.get(chunk.url);
    if (!page) {
      page = {
        url: chunk.url,
        anchor: chunk.anchor,
        title: chunk.title || chunk.url,
        sourceId: chunk.sourceId,
        score: 0,
        coverage: 0,
        similarity: 0,
        chunks: [],
        links: [],
      };
      pages.set(chunk.url, page);
    }
    page.chunks.push(chunk);
    page.coverage = Math.max(page.coverage, lexical);
    page.similarity = Math.max(page.similarity, similarity);
    if (chunkScore > (best.get(chunk.url) ?? -Infinity)) {
      best.set(chunk.url, chunkScore);
      page.anchor = chunk.anchor;
      page.links = chunk.links ?? [];
      page.score = chunkScore + WEIGHTS.title * share(chunk.titleMatched);
    }
  }
  return [...pages.values()].sort((a, b) => b.score - a.score);
}

/** The page URL a reference points at: with the section's anchor where the page has one. */
export const referenceUrl = (page: Pick<RankedPage, "url" | "anchor">) => (page.anchor ? `${page.url}#${page.anchor}` : page.url);
