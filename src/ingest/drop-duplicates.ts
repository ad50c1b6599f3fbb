import type { PageChunks } from "../core/retriever.ts";

const normalised = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * Drops repeated content within a source: a page identical to an earlier one
 * (a symlinked index.html), and a passage that also stands on another page,
 * kept only on the more specific page (the one with fewer passages) so that
 * all-in-one pages do not crowd out the reference page of a subject.
 */
export function dropDuplicates(pages: PageChunks[]): { pages: PageChunks[]; duplicates: number } {
  const seenPages = new Set<string>();
  const unique = pages.filter((p) => !seenPages.has(p.hash) && seenPages.add(p.hash));
  const owner = new Map<string, PageChunks>();
  const keys = new Map<PageChunks, string[]>();
  for (const page of unique) {
    const pageKeys = page.chunks.map((c) => normalised(c.text));
    keys.set(page, pageKeys);
    for (const key of pageKeys) {
      const current = owner.get(key);
      if (!current || page.chunks.length < current.chunks.length) owner.set(key, page);
    }
  }
  const kept: PageChunks[] = [];
  for (const page of unique) {
    const seen = new Set<string>();
    const pageKeys = keys.get(page)!;
    const chunks = page.chunks.filter((_, i) => {
      const key = pageKeys[i]!;
      if (owner.get(key) !== page || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (chunks.length === page.chunks.length) kept.push(page);
    else if (chunks.length > 0) kept.push({ ...page, chunks });
  }
  return { pages: kept, duplicates: pages.length - kept.length };
}
