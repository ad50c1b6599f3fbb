import { type RankedPage, referenceUrl } from "./rank-pages.ts";

/** A passage as a search returns it: its page, its section (the URL carries the section's anchor) and its text. */
export interface Passage {
  sourceId: string;
  url: string;
  title: string;
  section: string;
  text: string;
}

/**
 * The passages of ranked pages, best first: pages in rank order, each with at
 * most `perPage` of its best passages (as many as a model is given per
 * reference, see `groundPages`), so one long page cannot fill the list.
 */
export function passagesOf(pages: readonly RankedPage[], { limit, perPage = 2 }: { limit: number; perPage?: number }): Passage[] {
  return pages
    .flatMap((page) => page.chunks.slice(0, perPage))
    .slice(0, limit)
    .map((chunk) => ({ sourceId: chunk.sourceId, url: referenceUrl(chunk), title: chunk.title || chunk.url, section: chunk.section, text: chunk.text }));
}
