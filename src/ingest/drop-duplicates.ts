import type { PageChunks } from "../core/retriever.ts";

const normalised = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/** Shorter sentences repeat by chance ("Returns: None.", a heading): only longer ones tell a copy. */
const MIN_SENTENCE = 30;

/** A sentence on more pages than this is the site's boilerplate (a footer), not text one page copies from another. */
const MAX_HOLDERS = 50;

/** A page holds another when at least this share of the other's sentences stands on it; a page made this much of pages it holds is a compilation of them. */
const WHOLE = 0.9;

/** A passage's sentences, normalised, the short ones left out. */
function sentencesOf(text: string): string[] {
  const out: string[] = [];
  // Lower-cased once, then cut after sentence ends and at line ends; runs of spaces within a sentence collapsed.
  for (const part of text.toLowerCase().split(/(?<=[.!?:])\s+|\n+/)) {
    if (part.length < MIN_SENTENCE) continue;
    const sentence = /\s\s|^\s|\s$|[\t\r\f\v]/.test(part) ? part.replace(/\s+/g, " ").trim() : part;
    if (sentence.length >= MIN_SENTENCE) out.push(sentence);
  }
  return out;
}

/**
 * Drops repeated content within a source: a page identical to an earlier one
 * (a symlinked index.html), and a passage that also stands on another page,
 * kept only on the more specific page (the one with fewer passages) so that
 * all-in-one pages do not crowd out the reference page of a subject.
 * `context`: the source's other pages as stored, read but never returned.
 */
export function dropDuplicates(pages: PageChunks[], context: readonly PageChunks[] = []): { pages: PageChunks[]; duplicates: number } {
  const seenPages = new Set<string>();
  const unique = pages.filter((p) => !seenPages.has(p.hash) && seenPages.add(p.hash));
  const owner = new Map<string, PageChunks>();
  const keys = new Map<PageChunks, string[]>();
  // The source's pages that stay as stored (an incremental sync) decide what the changed ones repeat; they are not rewritten.
  for (const page of [...context, ...unique]) {
    const pageKeys = page.chunks.map((c) => normalised(c.text));
    keys.set(page, pageKeys);
    for (const key of pageKeys) {
      const current = owner.get(key);
      if (!current || page.chunks.length < current.chunks.length) owner.set(key, page);
    }
  }
  const copies = compilationCopies([...context, ...unique]);
  const kept: PageChunks[] = [];
  for (const page of unique) {
    const seen = new Set<string>();
    const pageKeys = keys.get(page)!;
    const copied = copies.get(page);
    const chunks = page.chunks.filter((_, i) => {
      const key = pageKeys[i]!;
      if (owner.get(key) !== page || seen.has(key) || copied?.has(i)) return false;
      seen.add(key);
      return true;
    });
    if (chunks.length === page.chunks.length) kept.push(page);
    else if (chunks.length > 0) kept.push({ ...page, chunks });
  }
  return { pages: kept, duplicates: pages.length - kept.length };
}

/**
 * The passages of all-in-one pages that copy the pages they gather, by page
 * and passage index. An all-in-one page (Node's `all.html`, SQLite's
 * `capi3ref.html`) cuts its text into passages at other places than the pages
 * it gathers do (where one module's text meets the next), so its passages are
 * rarely identical to theirs. A page *gathers* a smaller page when nearly all
 * of that page's sentences stand on it; it is a compilation when nearly all of
 * its own sentences come from the two or more pages it gathers. Pages that share a part of
 * their text (git's commands, which include the same option lists, each with
 * text of its own) gather nothing and keep it.
 */
function compilationCopies(pages: readonly PageChunks[]): Map<PageChunks, Set<number>> {
  const sentences = new Map<PageChunks, string[][]>();
  const holders = new Map<string, PageChunks[]>();
  for (const page of pages) {
    const perChunk = page.chunks.map((c) => sentencesOf(c.text));
    sentences.set(page, perChunk);
    for (const s of new Set(perChunk.flat())) {
      const list = holders.get(s);
      if (list) list.push(page);
      else holders.set(s, [page]);
    }
  }
  // A sentence one page copies from another: on two pages or more, but not on so many that it is boilerplate.
  const copiedAmong = (list: readonly PageChunks[]) => list.length > 1 && list.length <= MAX_HOLDERS;
  // How many of each page's sentences stand on each other (larger) page.
  const overlap = new Map<PageChunks, Map<PageChunks, number>>();
  for (const list of holders.values()) {
    if (!copiedAmong(list)) continue;
    for (const small of list) {
      const counts = overlap.get(small) ?? new Map<PageChunks, number>();
      overlap.set(small, counts);
      for (const large of list) if (large.chunks.length > small.chunks.length) counts.set(large, (counts.get(large) ?? 0) + 1);
    }
  }
  const gathered = new Map<PageChunks, Set<PageChunks>>();
  for (const [small, counts] of overlap) {
    const own = new Set(sentences.get(small)!.flat()).size;
    for (const [large, count] of counts) {
      if (count < WHOLE * own) continue;
      const set = gathered.get(large) ?? new Set<PageChunks>();
      gathered.set(large, set);
      set.add(small);
    }
  }
  const copies = new Map<PageChunks, Set<number>>();
  for (const [page, parts] of gathered) {
    const fromParts = (s: string) => {
      const list = holders.get(s)!;
      return copiedAmong(list) && list.some((p) => parts.has(p));
    };
    const perChunk = sentences.get(page)!;
    const all = [...new Set(perChunk.flat())];
    // A page that holds one other page is a version of it, not a compilation (the newer may say one thing more).
    if (parts.size < 2 || all.filter(fromParts).length < WHOLE * all.length) continue;
    const copied = new Set<number>();
    // Only a passage all of whose sentences stand on gathered pages is a copy: none of the page's own words is lost.
    perChunk.forEach((own, i) => {
      if (own.length > 0 && own.every(fromParts)) copied.add(i);
    });
    copies.set(page, copied);
  }
  return copies;
}
