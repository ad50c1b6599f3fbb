import type { PageLink, RetrievalResult, RetrievedChunk } from "./retriever.ts";

/** A page as a candidate reference: its best passages and how well it answers. */
export interface RankedPage {
  url: string;
  /** The anchor of the page's best passage, "" when unknown. */
  anchor: string;
  title: string;
  sourceId: string;
  score: number;
  /** Share of the question's (weighted) terms that the page's best-covering passage contains, a long question's counted up to COVERAGE_WEIGHT_CAP. */
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

/**
 * Coverage counts a question's weight up to this many times its heaviest
 * word's. A long question tells a story around what it asks ("our dashboard
 * reads from a materialized view we rebuild every ten minutes, and while…"):
 * its incidental words, often ones the documentation lacks and so the
 * heaviest, leave any passage a small share of the whole, though a passage
 * holding several of its telling words together is no chance match. Short
 * questions (most: their weight is under the cap) are judged as before.
 * Calibrated on check4, written to study the refusals a held-out set showed:
 * its 26 on-topic questions under the open bar clear it from a cap of 3.5 to
 * 4.4; on the off-topic set, one question more passes the share at 4, and its
 * unknown name still refuses it. Ranking uses the plain share.
 */
export const COVERAGE_WEIGHT_CAP = 4;

/** The weight coverage judges a question by: its terms' total, counted up to COVERAGE_WEIGHT_CAP times the heaviest. */
const judgedWeight = (terms: readonly { weight: number }[]) =>
  Math.min(
    terms.reduce((sum, t) => sum + t.weight, 0),
    COVERAGE_WEIGHT_CAP * Math.max(0, ...terms.map((t) => t.weight)),
  );

/**
 * Ranks pages from passages, rare words weighing more (see WEIGHTS). `aside`:
 * terms a page's coverage may leave out (see set-aside-phrases.ts): it is the
 * larger of the share with them and the share without; ranking counts every
 * term.
 */
export function rankPages({ chunks, terms }: RetrievalResult, { aside }: { aside?: ReadonlySet<string> } = {}): RankedPage[] {
  if (chunks.length === 0) return [];
  const weight = new Map(terms.map((t) => [t.term, t.weight]));
  const total = terms.reduce((sum, t) => sum + t.weight, 0) || 1;
  const judgedAll = judgedWeight(terms) || 1;
  // Without the set-aside terms too, the larger share counting: a phrase set aside may still be what a passage
  // answers ("keeps working without recompiling"). A question made only of what it sets aside keeps its plain share.
  const judgedRest = aside?.size ? judgedWeight(terms.filter((t) => !aside.has(t.term))) : 0;
  const held = (found: readonly string[]) => found.reduce((sum, term) => sum + (weight.get(term) ?? 0), 0);
  const restShare = (found: readonly string[]) => (judgedRest > 0 ? Math.min(1, held(found.filter((term) => !aside!.has(term))) / judgedRest) : 0);
  const share = (found: readonly string[]) => held(found) / total;
  const top = Math.max(...chunks.map((c) => c.score)) || 1;

  const pages = new Map<string, RankedPage>();
  // Each page's best passage score, apart from the page (an object rest copy per page costs more than the ranking).
  const best = new Map<string, number>();
  for (const chunk of chunks) {
    // A passage found by meaning covers the question as far as its similarity says, whatever its words.
    const matched = held(chunk.matched);
    const lexical = Math.max(matched / total, chunk.coverage ?? 0);
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
    page.coverage = Math.max(page.coverage, Math.min(1, matched / judgedAll), restShare(chunk.matched), chunk.coverage ?? 0);
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

/**
 * The page URL a reference points at: with the section's anchor where the page
 * has one. An anchor is the page's own id, which may hold anything: what a URL's
 * fragment may not (white space, controls, `"`, `<`, `>`, a backtick) is
 * percent-encoded as a browser would, so a reference stays one URL in HTML,
 * Markdown or plain text (`#zf" onmouseover="…` was written out raw).
 */
export const referenceUrl = (page: Pick<RankedPage, "url" | "anchor">) => (page.anchor ? `${page.url}#${fragment(page.anchor)}` : page.url);

const fragment = (anchor: string) => {
  let out = "";
  for (const ch of anchor) {
    // Also brackets, parentheses and backslashes, which Markdown reads as syntax, and anything not ASCII (a
    // no-break space ends a URL to a Markdown renderer): a heading's id is the page's to choose. Browsers decode
    // a fragment before looking its element up, so the reference still lands on the section.
    out += FRAGMENT_SAFE.test(ch) ? ch : percentEncoded(ch);
  }
  return out;
};
/** A character percent-encoded, `(`, `)`, `!`, `'` and `*` too (which encodeURIComponent leaves). */
export const percentEncoded = (ch: string) => encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
/** What a reference's fragment keeps as written: printable ASCII but for the fragment percent-encode set and Markdown's brackets. */
const FRAGMENT_SAFE = /^[!#$&'*+,\-./0-9:;=?@A-Z^_a-z{|}~]$/;
