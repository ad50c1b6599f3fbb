import type { RankedPage } from "./rank-pages.ts";
import type { RetrievalResult } from "./retriever.ts";

/** How many of the best pages vouch for the pages they link to… */
const LINKING_PAGES = 5;
/** …and the share of a linking page's score that a page it links to gains (the best such share, not their sum). */
const LINK_SHARE = 0.25;

/**
 * Re-ranks found pages by what the best of them point at in the question's
 * words. Documentation names a topic where it links to it ("11.8. Partial
 * Indexes" from a passage on indexes over some rows), often in the words a
 * question uses where the linked page's own best passage does not; a found
 * page that one of the best pages links to with a link naming a word of the
 * question gains a share of that page's score. A link that names none of the
 * question's words (a "see also" to a neighbouring topic) counts for nothing,
 * and only pages already found move: a link alone never makes a reference.
 * `matches` tells which of the question's terms a text holds, as the
 * retriever reads text (without it, nothing moves).
 * Meant for the pages of the sources chosen, not for choosing them.
 */
export function withLinkedPages(pages: readonly RankedPage[], matches: RetrievalResult["matches"]): RankedPage[] {
  if (!matches) return [...pages];
  const found = new Set(pages.map((p) => p.url));
  const gains = new Map<string, number>();
  for (const linking of pages.slice(0, LINKING_PAGES)) {
    for (const { url, text } of linking.links) {
      if (url === linking.url || !found.has(url) || matches(text).length === 0) continue;
      gains.set(url, Math.max(gains.get(url) ?? 0, LINK_SHARE * linking.score));
    }
  }
  if (gains.size === 0) return [...pages];
  return pages.map((p) => (gains.has(p.url) ? { ...p, score: p.score + gains.get(p.url)! } : p)).sort((a, b) => b.score - a.score);
}
