import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { IndexWriter, PageChunks, PageReader, RetrievedChunk, Retriever, VectorSearch } from "../../core/retriever.ts";
import { makeTermMatcher, type TextAnalyzer } from "../../core/text-analyzer.ts";
import { sqliteStartupError } from "../../startup-error.ts";
import { englishAnalyzer } from "../../text/english-analyzer.ts";
import { storedLinks } from "../stored-links.ts";
import { readSpans, storedSpans } from "../stored-spans.ts";
import { migrateIndex } from "./index-schema.ts";
import { makePassageRows } from "./passage-rows.ts";
import { queryTerms } from "./query-terms.ts";
import { buildSegment, FIELD, type SegmentInput, segmentRow } from "./segment.ts";
import { searchSegments } from "./segment-search.ts";
import { makeSegmentStore } from "./segment-store.ts";
import { makeVectorStore } from "./vector-store.ts";

export interface SqliteIndex {
  retrieve: Retriever;
  /** Cosine search over stored embeddings (empty when none were stored). */
  vectorSearch: VectorSearch;
  writer: IndexWriter;
  readPage: PageReader;
  /**
   * Reloads what other connections (the CLI, another process) committed since
   * the last look; searches never do. Servers call it from a timer (`refreshMs`)
   * and when the change counter moves.
   */
  refresh(): void;
  /** Chunk and page counts, and the terms of the in-memory dictionary, for the CLI, benchmarks and tests. */
  /** `graphs`: sources whose vectors are searched through a ready HNSW graph (see vector-graphs.ts). */
  stats(): { chunks: number; pages: number; terms: number; graphs: number };
  close(): void;
}

/**
 * The embedded retrieval index, in one SQLite file opened in WAL mode so a CLI
 * ingest and a running server can share it. Passages are rows; each source's
 * inverted index is one `segment` row, written in the same transaction as its
 * passages (readers see a source's old state or its new one) and searched in
 * memory, so a query costs postings arithmetic, not a scan of every match.
 */
export function openSqliteIndex(
  file: string,
  /** `analyzer`: how passages and questions are read (the one the rest of docent uses); segments store its terms. */
  {
    preload = false,
    refreshMs,
    analyzer = englishAnalyzer,
    graphMinFloats,
  }: {
    preload?: boolean;
    refreshMs?: number;
    analyzer?: TextAnalyzer;
    /** Stored floats from which a source's vectors are searched through an HNSW graph (default GRAPH_MIN_FLOATS; tests lower it). */
    graphMinFloats?: number;
  } = {},
): SqliteIndex {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (error) {
    throw sqliteStartupError(error, file, "the index") ?? error;
  }
  let unindexed: ReturnType<typeof migrateIndex>;
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 10000");
    unindexed = migrateIndex(db);
  } catch (error) {
    db.close();
    // A file that is no index (overwritten, corrupt) is said in one line, as the key database's is.
    throw sqliteStartupError(error, file, "the index") ?? error;
  }
  const sourceChunks = db.prepare(`SELECT id, url, title, section, body AS text FROM chunk WHERE source_id = ? ORDER BY id`);
  const deleteSegment = db.prepare(`DELETE FROM segment WHERE source_id = ?`);
  const insertSegment = db.prepare(
    `INSERT INTO segment (source_id, docs, tokens, terms, rowids, lengths, starts, postings, freqs, masks)
     VALUES (@sourceId, @docs, @tokens, @terms, @rowids, @lengths, @starts, @postings, @freqs, @masks)`,
  );
  /** Rebuilds a source's segment from the passages given (all of the source's, in id order). */
  const writeSegment = (sourceId: string, chunks: SegmentInput[]) => {
    deleteSegment.run(sourceId);
    if (chunks.length > 0) insertSegment.run({ sourceId, ...segmentRow(buildSegment(chunks, analyzer)) });
  };
  if (unindexed.length > 0)
    db.transaction(() => {
      for (const id of unindexed) writeSegment(id, sourceChunks.all(id) as SegmentInput[]);
    })();

  const passagesById = makePassageRows(db);
  const deleteChunks = db.prepare(`DELETE FROM chunk WHERE source_id = ?`);
  const deletePageChunks = db.prepare(`DELETE FROM chunk WHERE source_id = ? AND url = ?`);
  const deletePage = db.prepare(`DELETE FROM page WHERE source_id = ? AND url = ?`);
  const deletePages = db.prepare(`DELETE FROM page WHERE source_id = ?`);
  const indexedSources = db.prepare(`SELECT DISTINCT source_id FROM page`).pluck();
  const hashesOf = db.prepare(`SELECT url, hash FROM page WHERE source_id = ?`);
  const totalsOf = db.prepare(`SELECT (SELECT count(*) FROM page WHERE source_id = ?) AS pages, (SELECT count(*) FROM chunk WHERE source_id = ?) AS chunks`);
  const insertPage = db.prepare(`INSERT OR REPLACE INTO page (source_id, url, hash) VALUES (?, ?, ?)`);
  const insertChunk = db.prepare(`INSERT INTO chunk (source_id, url, anchor, title, section, body, links, spans) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertVec = db.prepare(`INSERT INTO chunk_vec (id, source_id, vec) VALUES (?, ?, ?)`);
  // Row ids grow in the order a page's passages were inserted: page order. The (source_id, url) index serves it.
  const pagePassages = db.prepare(
    `SELECT source_id AS sourceId, title, anchor, section, body AS text, spans FROM chunk WHERE source_id IN (SELECT value FROM json_each(?)) AND url = ? ORDER BY id`,
  );

  const insertPages = (sourceId: string, pages: PageChunks[]): SegmentInput[] => {
    const inserted: SegmentInput[] = [];
    for (const page of pages) {
      insertPage.run(sourceId, page.url, page.hash);
      for (const c of page.chunks) {
        const id = Number(insertChunk.run(sourceId, c.url, c.anchor, c.title, c.section, c.text, storedLinks(c.links), storedSpans(c.spans)).lastInsertRowid);
        inserted.push({ id, url: c.url, title: c.title, section: c.section, text: c.text });
        if (c.embedding) insertVec.run(id, sourceId, Buffer.from(c.embedding.buffer, c.embedding.byteOffset, c.embedding.byteLength));
      }
    }
    return inserted;
  };
  const totals = (sourceId: string) => totalsOf.get(sourceId, sourceId) as { pages: number; chunks: number };
  const replace = db.transaction((sourceId: string, pages: PageChunks[]) => {
    deleteChunks.run(sourceId);
    deletePages.run(sourceId);
    writeSegment(sourceId, insertPages(sourceId, pages));
    return totals(sourceId);
  });
  const apply = db.transaction((sourceId: string, upsert: PageChunks[], remove: string[]) => {
    if (upsert.length === 0 && remove.length === 0) return totals(sourceId);
    for (const url of [...remove, ...upsert.map((p) => p.url)]) {
      deletePageChunks.run(sourceId, url);
      deletePage.run(sourceId, url);
    }
    insertPages(sourceId, upsert);
    writeSegment(sourceId, sourceChunks.all(sourceId) as SegmentInput[]);
    return totals(sourceId);
  });
  const remove = db.transaction((sourceId: string) => {
    deleteChunks.run(sourceId);
    deletePages.run(sourceId);
    deleteSegment.run(sourceId);
  });

  const segments = makeSegmentStore(db);
  // Graphs are derived files beside the index (like SQLite's -wal): rebuilt when missing, never backed up.
  const vectors = makeVectorStore(db, { dir: `${file}-graphs`, minFloats: graphMinFloats });
  // A server loads every segment and vector at start, so its first question is as fast as the rest.
  if (preload) {
    segments.current();
    vectors.load();
  }
  /** After a reload, the passages and vectors of the changed sources are read anew. */
  const reloaded = (change: { changed: string[]; live: ReadonlySet<string> } | null) => {
    if (!change) return;
    passagesById.clear();
    vectors.refresh(change.changed, change.live);
  };
  const written = <T>(result: T) => {
    reloaded(segments.refreshAfterWrite());
    return result;
  };
  const refresh = () => reloaded(segments.refresh());
  const timer = refreshMs ? setInterval(refresh, refreshMs).unref() : undefined;

  return {
    vectorSearch: async (vector, sourceIds, limit) => vectors.search(vector, sourceIds, limit),
    async retrieve({ query, sourceIds, visible, limit, signal }) {
      signal?.throwIfAborted();
      const { segments: all, dictionary } = segments.current();
      const scope = sourceIds ? sourceIds.flatMap((id) => all.get(id) ?? []) : [...all.values()];
      const known = visible ? visible.flatMap((id) => all.get(id) ?? []) : [...all.values()];
      const { terms, search, termMasks } = queryTerms(query, known, (term) => dictionary.get(term), analyzer);
      const publicTerms = terms.map(({ term, text, weight, share }) => ({ term, text, weight, share }));
      const hits = searchSegments(scope, search, limit);
      if (hits.length === 0) return { chunks: [], terms: publicTerms };
      const rows = passagesById(hits.map((h) => h.segment.rowids[h.doc]!));
      const chunks: RetrievedChunk[] = [];
      for (const hit of hits) {
        const row = rows.get(hit.segment.rowids[hit.doc]!);
        if (!row) continue; // removed by a commit after the search began
        const masks = termMasks(hit.masks);
        const matched: string[] = [];
        const titleMatched: string[] = [];
        const headingMatched: string[] = [];
        terms.forEach(({ term }, i) => {
          const mask = masks[i]!;
          if (mask & (FIELD.title | FIELD.heading | FIELD.text)) matched.push(term);
          if (mask & FIELD.title) titleMatched.push(term);
          if (mask & FIELD.heading) headingMatched.push(term);
        });
        // Built field by field: an object rest/spread copy of the row costs more than the search itself.
        const chunk: RetrievedChunk = {
          sourceId: row.sourceId,
          url: row.url,
          anchor: row.anchor,
          title: row.title,
          section: row.section,
          text: row.text,
          key: String(row.id),
          score: hit.score,
          matched,
          titleMatched,
          headingMatched,
        };
        if (row.links) chunk.links = row.links;
        if (row.spans) chunk.spans = row.spans;
        chunks.push(chunk);
      }
      return {
        chunks,
        terms: publicTerms,
        matches: makeTermMatcher(
          analyzer,
          terms.map((t) => t.term),
        ),
      };
    },
    writer: {
      async pageHashes(sourceId) {
        return new Map((hashesOf.all(sourceId) as Array<{ url: string; hash: string }>).map((r) => [r.url, r.hash]));
      },
      async applyChanges(sourceId, { upsert, remove }) {
        return written(apply.immediate(sourceId, upsert, remove));
      },
      async replaceSource(sourceId, pages) {
        return written(replace.immediate(sourceId, pages));
      },
      async removeSource(sourceId) {
        written(remove.immediate(sourceId));
      },
      async sourceIds() {
        return indexedSources.all() as string[];
      },
    },
    async readPage(url, sourceIds) {
      const rows = pagePassages.all(JSON.stringify(sourceIds), url) as Array<{
        sourceId: string;
        title: string;
        anchor: string;
        section: string;
        text: string;
        spans: string;
      }>;
      const first = rows[0];
      if (!first) return null;
      // Two sources may hold the same URL: the page is the first one's, never a mix.
      const passages = rows
        .filter((r) => r.sourceId === first.sourceId)
        .map(({ anchor, section, text, spans }) => ({ anchor, section, text, ...(spans && { spans: readSpans(spans) }) }));
      return { sourceId: first.sourceId, url, title: first.title, passages };
    },
    refresh,
    stats() {
      const chunks = (db.prepare(`SELECT count(*) AS n FROM chunk`).get() as { n: number }).n;
      const pages = (db.prepare(`SELECT count(*) AS n FROM page`).get() as { n: number }).n;
      return { chunks, pages, terms: segments.current().dictionary.size, graphs: vectors.graphs() };
    },
    close() {
      clearInterval(timer);
      vectors.close();
      db.close();
    },
  };
}
