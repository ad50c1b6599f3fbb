import { describe, expect, it } from "vitest";
import type { Chunk, IndexWriter, PageChunks, PageReader, QueryTerm, Retriever } from "../core/retriever.ts";

/**
 * The contract of the retriever port, which every retrieval index runs (the
 * embedded SQLite index and Weaviate): the question's words as terms, the
 * page about the question first, which terms a passage holds (in its text,
 * title, headings), the passage as written (anchor, links, section spans),
 * the source filter inside the search, atomic replacement and removal per
 * source, reading one stored page back, and abort. How terms are weighed and how far words are normalised
 * in the search itself are the index's own: the embedded index's checks
 * (document frequencies, Porter stems) are in embedded/embedded-retriever.checks.ts.
 */
export const PG = "0b5e5a3e-8a4c-4c1e-9a51-0c1a2b3c4d5e";
export const LITE = "7f1d2c3b-4a59-4e6f-8d7c-1b2a3c4d5e6f";

export type RetrieverSetup = () => Promise<{ retrieve: Retriever; writer: IndexWriter; readPage: PageReader; cleanup?: () => Promise<void> }>;

/** The term the retriever made of a word of the question (how it normalises words is its own). */
export const termOf = (terms: readonly QueryTerm[], word: string) => terms.find((t) => t.text === word)?.term ?? `(no term for ${word})`;

/** A fresh index holding CONTRACT_PAGES. */
export async function seededIndex(setup: RetrieverSetup) {
  const index = await setup();
  for (const [id, pages] of Object.entries(CONTRACT_PAGES)) await index.writer.replaceSource(id, pages);
  return index;
}

export const page = (sourceId: string, url: string, title: string, sections: Array<[string, string]>): PageChunks => ({
  url,
  hash: `${url}-${sections.length}`,
  chunks: sections.map(([section, text]): Chunk => ({ sourceId, url, anchor: section.toLowerCase().replace(/\W+/g, "-"), title, section, text })),
});

export const CONTRACT_PAGES = {
  [PG]: [
    page(PG, "https://pg.example/sql-cluster.html", "CLUSTER", [
      ["Description", "CLUSTER instructs PostgreSQL to physically reorder a table based on an index."],
    ]),
    page(PG, "https://pg.example/sql-vacuum.html", "VACUUM", [["Description", "VACUUM reclaims storage occupied by dead tuples in PostgreSQL tables."]]),
    page(PG, "https://pg.example/indexes-partial.html", "Partial Indexes", [
      ["Partial Indexes", "A partial index is built over a subset of a table defined by a predicate."],
    ]),
  ],
  [LITE]: [
    page(LITE, "https://sqlite.example/lang_vacuum.html", "VACUUM", [
      ["Overview", "The VACUUM command rebuilds the SQLite database file, repacking it into a minimal amount of disk space."],
    ]),
    page(LITE, "https://sqlite.example/partialindex.html", "Partial Indexes", [
      ["Overview", "A partial index in SQLite is an index over a subset of the rows of a table."],
    ]),
  ],
};

export function retrieverContract(name: string, setup: RetrieverSetup) {
  describe(`Retriever contract: ${name}`, () => {
    const seeded = () => seededIndex(setup);

    it("ranks the page about the question first", async () => {
      const { retrieve, cleanup } = await seeded();
      const { chunks: hits, terms } = await retrieve({ query: "How do I physically reorder a table according to an index?", limit: 5 });
      await cleanup?.();
      // The question's words less the stop words, each once, as asked.
      expect(terms.map((t) => t.text)).toEqual(["physically", "reorder", "table", "according", "index"]);
      expect(terms.every((t) => t.weight > 0)).toBe(true);
      // The CLUSTER passage holds every query word but "according".
      expect([...hits[0]!.matched].sort()).toEqual(["physically", "reorder", "table", "index"].map((w) => termOf(terms, w)).sort());
      expect(hits[0]!.titleMatched).toEqual([]);
      expect(hits[0]?.url).toBe("https://pg.example/sql-cluster.html");
      expect(hits[0]).toMatchObject({ title: "CLUSTER", section: "Description", anchor: "description", sourceId: PG });
      for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    });

    it("reports the query terms found in titles and headings", async () => {
      const { retrieve, cleanup } = await seeded();
      const { chunks, terms } = await retrieve({ query: "partial indexes overview", sourceIds: [LITE], limit: 5 });
      await cleanup?.();
      expect(chunks[0]).toMatchObject({
        url: "https://sqlite.example/partialindex.html",
        titleMatched: expect.arrayContaining([termOf(terms, "partial"), termOf(terms, "indexes")]),
        headingMatched: [termOf(terms, "overview")],
      });
    });

    it("returns the pages a passage links to, and reads their words for the query's terms", async () => {
      const { retrieve, writer, cleanup } = await seeded();
      const unique = page(PG, "https://pg.example/indexes-unique.html", "Unique Indexes", [
        ["Unique Indexes", "A unique index enforces uniqueness over all rows or over a subset."],
      ]);
      unique.chunks[0]!.links = [
        { url: "https://pg.example/indexes-partial.html", text: "Section 11.8 11.8. Partial Indexes" },
        { url: "https://pg.example/sql-cluster.html", text: "CLUSTER" },
      ];
      await writer.applyChanges(PG, { upsert: [unique], remove: [] });
      const { chunks, matches, terms } = await retrieve({ query: "unique index over some rows with partial coverage", sourceIds: [PG], limit: 5 });
      await cleanup?.();
      expect(chunks[0]!.links).toEqual([
        { url: "https://pg.example/indexes-partial.html", text: "Section 11.8 11.8. Partial Indexes" },
        { url: "https://pg.example/sql-cluster.html", text: "CLUSTER" },
      ]);
      expect(matches!("Section 11.8 11.8. Partial Indexes").sort()).toEqual([termOf(terms, "index"), termOf(terms, "partial")].sort());
      expect(matches!("CLUSTER")).toEqual([]);
      expect(chunks.find((c) => c.url.endsWith("sql-vacuum.html"))?.links ?? []).toEqual([]);
    });

    it("returns a passage's section spans as written", async () => {
      const { retrieve, writer, cleanup } = await seeded();
      const text = "REINDEX rebuilds an index.\n\nConcurrently\n\nREINDEX CONCURRENTLY rebuilds without locking out writes.";
      const spans = [
        { start: 0, anchor: "description", section: "Description" },
        { start: 28, anchor: "concurrently", section: "Notes › Concurrently" },
      ];
      const reindex: PageChunks = {
        url: "https://pg.example/sql-reindex.html",
        hash: "r",
        chunks: [{ sourceId: PG, url: "https://pg.example/sql-reindex.html", anchor: "description", title: "REINDEX", section: "Description", text, spans }],
      };
      await writer.applyChanges(PG, { upsert: [reindex], remove: [] });
      const { chunks } = await retrieve({ query: "rebuild without locking writes", sourceIds: [PG], limit: 5 });
      await cleanup?.();
      expect(chunks[0]).toMatchObject({ url: "https://pg.example/sql-reindex.html", anchor: "description", spans });
      expect(chunks.find((c) => c.url.endsWith("sql-vacuum.html"))?.spans).toBeUndefined();
    });

    it("searches only the sources it is given", async () => {
      const { retrieve, cleanup } = await seeded();
      const { chunks: onlyLite } = await retrieve({ query: "vacuum", sourceIds: [LITE], limit: 10 });
      const { chunks: both } = await retrieve({ query: "vacuum", limit: 10 });
      await cleanup?.();
      expect(onlyLite.length).toBeGreaterThan(0);
      expect(onlyLite.every((h) => h.sourceId === LITE)).toBe(true);
      expect(new Set(both.map((h) => h.sourceId))).toEqual(new Set([PG, LITE]));
    });

    it("finds nothing for a question made only of common words", async () => {
      const { retrieve, cleanup } = await seeded();
      const { chunks } = await retrieve({ query: "how do I do it?", limit: 5 });
      await cleanup?.();
      expect(chunks).toEqual([]);
    });

    it("replaces a source as a whole and keeps no duplicates when ingested twice", async () => {
      const { retrieve, writer, cleanup } = await seeded();
      await writer.replaceSource(PG, CONTRACT_PAGES[PG]);
      const { chunks: twice } = await retrieve({ query: "cluster reorder", sourceIds: [PG], limit: 10 });
      expect(twice.filter((h) => h.url.endsWith("sql-cluster.html"))).toHaveLength(1);
      await writer.replaceSource(PG, [page(PG, "https://pg.example/sql-reindex.html", "REINDEX", [["Description", "REINDEX rebuilds an index."]])]);
      const { chunks: after } = await retrieve({ query: "cluster reorder index", sourceIds: [PG], limit: 10 });
      await cleanup?.();
      expect(after.map((h) => h.url)).toEqual(["https://pg.example/sql-reindex.html"]);
    });

    it("applies page changes atomically, as seen by searches of that source alone and of all", async () => {
      const { retrieve, writer, cleanup } = await seeded();
      const reindex = page(PG, "https://pg.example/sql-reindex.html", "REINDEX", [["Description", "REINDEX rebuilds an index."]]);
      await writer.applyChanges(PG, { upsert: [reindex], remove: ["https://pg.example/sql-cluster.html"] });
      const alone = (await retrieve({ query: "reorder rebuilds", sourceIds: [PG], limit: 10 })).chunks.map((c) => c.url);
      const all = (await retrieve({ query: "reorder rebuilds", limit: 10 })).chunks.map((c) => c.url);
      const hashes = await writer.pageHashes(PG);
      await cleanup?.();
      expect(alone).toEqual(["https://pg.example/sql-reindex.html"]);
      expect(all).toContain("https://pg.example/sql-reindex.html");
      expect(all).not.toContain("https://pg.example/sql-cluster.html");
      expect([...hashes.keys()].sort()).toEqual([
        "https://pg.example/indexes-partial.html",
        "https://pg.example/sql-reindex.html",
        "https://pg.example/sql-vacuum.html",
      ]);
    });

    it("removes a source and nothing else", async () => {
      const { retrieve, writer, cleanup } = await seeded();
      expect((await writer.sourceIds()).sort()).toEqual([LITE, PG].sort());
      await writer.removeSource(PG);
      expect(await writer.sourceIds()).toEqual([LITE]);
      const { chunks: hits } = await retrieve({ query: "vacuum partial index", limit: 10 });
      await cleanup?.();
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.sourceId === LITE)).toBe(true);
    });

    it("reads a stored page back in page order, only from the sources given and as last written", async () => {
      const { readPage, writer, cleanup } = await seeded();
      const url = "https://pg.example/explicit-locking.html";
      const sections: Array<[string, string]> = [
        ["Overview", "PostgreSQL provides various lock modes to control concurrent access to data in tables."],
        ["Table-Level Locks", "The list below shows the available lock modes and the contexts in which they are used."],
        ["Advisory Locks", "PostgreSQL provides a means for creating locks that have application-defined meanings."],
      ];
      await writer.applyChanges(PG, { upsert: [page(PG, url, "Explicit Locking", sections)], remove: [] });
      const read = await readPage(url, [LITE, PG]);
      const elsewhere = await readPage(url, [LITE]);
      const unknown = await readPage("https://pg.example/no-such-page.html", [PG, LITE]);
      await writer.applyChanges(PG, { upsert: [page(PG, url, "Explicit Locking", sections.slice(2))], remove: [] });
      const rewritten = await readPage(url, [PG]);
      await cleanup?.();
      expect(read).toEqual({
        sourceId: PG,
        url,
        title: "Explicit Locking",
        passages: sections.map(([section, text]) => ({ anchor: section.toLowerCase().replace(/\W+/g, "-"), section, text })),
      });
      expect(elsewhere).toBeNull();
      expect(unknown).toBeNull();
      expect(rewritten?.passages.map((p) => p.section)).toEqual(["Advisory Locks"]);
    });

    it("stops when the request's signal has aborted", async () => {
      const { retrieve, cleanup } = await seeded();
      const controller = new AbortController();
      controller.abort();
      const outcome = retrieve({ query: "vacuum", limit: 5, signal: controller.signal }).then(
        () => "answered",
        (e: Error) => e.name,
      );
      const name = await outcome;
      await cleanup?.();
      expect(name).toBe("AbortError");
    });
  });
}
