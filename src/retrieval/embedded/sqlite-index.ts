import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { IndexWriter, PageChunks, QueryTerm, RetrievedChunk, Retriever, VectorSearch } from "../../core/retriever.ts";
import { makeVectorStore } from "./vector-store.ts";
import { makeSourceShards, type ShardRow } from "./source-shards.ts";
import { buildMatch, queryWords, sourceToken } from "./fts-query.ts";
import { makeTermMatcher, porterStem } from "../term-matcher.ts";
import { identifierParts } from "./identifier-parts.ts";

const SCHEMA_VERSION = 4;

/** A word in more than this share of all chunks is too common to select candidates by (it still ranks them)… */
const COMMON_SHARE = 0.1;
/** …once the index is large enough for that to matter. */
const GATING_MIN_CHUNKS = 2000;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS page (source_id TEXT NOT NULL, url TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (source_id, url));
CREATE TABLE IF NOT EXISTS chunk (
  id INTEGER PRIMARY KEY, source_id TEXT NOT NULL, src TEXT NOT NULL, url TEXT NOT NULL, anchor TEXT NOT NULL,
  title TEXT NOT NULL, section TEXT NOT NULL, body TEXT NOT NULL, idents TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chunk_by_source ON chunk (source_id, url);
CREATE VIRTUAL TABLE IF NOT EXISTS chunk_fts USING fts5(
  title, section, body, idents, src, content='chunk', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
CREATE TABLE IF NOT EXISTS chunk_vec (id INTEGER PRIMARY KEY, source_id TEXT NOT NULL, vec BLOB NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS chunk_vocab USING fts5vocab(chunk_fts, 'row');
CREATE TRIGGER IF NOT EXISTS chunk_ai AFTER INSERT ON chunk BEGIN
  INSERT INTO chunk_fts (rowid, title, section, body, idents, src) VALUES (new.id, new.title, new.section, new.body, new.idents, new.src);
END;
CREATE TRIGGER IF NOT EXISTS chunk_ad AFTER DELETE ON chunk BEGIN
  DELETE FROM chunk_vec WHERE id = old.id;
  INSERT INTO chunk_fts (chunk_fts, rowid, title, section, body, idents, src) VALUES ('delete', old.id, old.title, old.section, old.body, old.idents, old.src);
END;
`;

/** BM25 column weights: title, section, body, identifier parts, source token. */
const RANK = "bm25(4.0, 2.0, 1.0, 1.0, 0.0)";

export interface SqliteIndex {
  retrieve: Retriever;
  /** Cosine search over stored embeddings (empty when none were stored). */
  vectorSearch: VectorSearch;
  writer: IndexWriter;
  /** Chunk and page counts, for the CLI and benchmarks. */
  stats(): { chunks: number; pages: number };
  close(): void;
}

/**
 * The embedded retrieval index: SQLite FTS5 in one file, opened in WAL mode so
 * a CLI ingest and a running server can share it; readers keep the previous
 * state until a source's replacement commits.
 */
export function openSqliteIndex(file: string): SqliteIndex {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 10000");
  // The index is derived data: an index built by another schema version is rebuilt empty (re-add sources).
  if (db.pragma("user_version", { simple: true }) !== SCHEMA_VERSION) {
    db.exec("DROP TABLE IF EXISTS chunk_vocab; DROP TABLE IF EXISTS chunk_fts; DROP TABLE IF EXISTS chunk; DROP TABLE IF EXISTS page; DROP TABLE IF EXISTS chunk_vec;");
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }
  db.exec(SCHEMA);
  db.prepare(`INSERT INTO chunk_fts (chunk_fts, rank) VALUES ('rank', ?)`).run(RANK);

  // Rank inside FTS5 first, then read only the winners' text.
  const search = db.prepare(
    `WITH top AS (SELECT rowid AS id, rank FROM chunk_fts WHERE chunk_fts MATCH ? ORDER BY rank LIMIT ?)
     SELECT c.id AS id, c.source_id AS sourceId, c.url, c.anchor, c.title, c.section, c.body AS text, c.idents, top.rank AS rank
     FROM top JOIN chunk c ON c.id = top.id ORDER BY top.rank`,
  );
  const docFrequency = db.prepare(`SELECT doc FROM chunk_vocab WHERE term = ?`).pluck();
  const chunkCount = db.prepare(`SELECT count(*) FROM chunk`).pluck();
  const dataVersion = db.prepare(`PRAGMA data_version`).pluck();

  // Document frequencies are cached until this or another connection writes.
  let version = -1;
  let total = 0;
  const dfCache = new Map<string, number>();
  const freshStats = () => {
    const v = dataVersion.get() as number;
    if (v !== version || total === 0) {
      version = v;
      dfCache.clear();
      total = chunkCount.get() as number;
    }
  };
  const df = (stem: string) => {
    let n = dfCache.get(stem);
    if (n === undefined) {
      n = (docFrequency.get(stem) as number | undefined) ?? 0;
      if (dfCache.size > 20_000) dfCache.clear();
      dfCache.set(stem, n);
    }
    return n;
  };
  const deleteChunks = db.prepare(`DELETE FROM chunk WHERE source_id = ?`);
  const deletePageChunks = db.prepare(`DELETE FROM chunk WHERE source_id = ? AND url = ?`);
  const deletePage = db.prepare(`DELETE FROM page WHERE source_id = ? AND url = ?`);
  const hashesOf = db.prepare(`SELECT url, hash FROM page WHERE source_id = ?`);
  const totalsOf = db.prepare(`SELECT (SELECT count(*) FROM page WHERE source_id = ?) AS pages, (SELECT count(*) FROM chunk WHERE source_id = ?) AS chunks`);
  const deletePages = db.prepare(`DELETE FROM page WHERE source_id = ?`);
  const insertPage = db.prepare(`INSERT OR REPLACE INTO page (source_id, url, hash) VALUES (?, ?, ?)`);
  const insertChunk = db.prepare(
    `INSERT INTO chunk (source_id, src, url, anchor, title, section, body, idents) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  const insertVec = db.prepare(`INSERT INTO chunk_vec (id, source_id, vec) VALUES (?, ?, ?)`);
  const shards = makeSourceShards(db);
  const pageRows = db.prepare(`SELECT id, title, section, body, idents FROM chunk WHERE source_id = ? AND url = ?`);
  const insertPages = (sourceId: string, pages: PageChunks[]) => {
    const src = sourceToken(sourceId);
    shards.ensure(sourceId);
    for (const page of pages) {
      insertPage.run(sourceId, page.url, page.hash);
      for (const c of page.chunks) {
        const idents = identifierParts(`${c.title} ${c.section} ${c.text}`);
        const { lastInsertRowid } = insertChunk.run(sourceId, src, c.url, c.anchor, c.title, c.section, c.text, idents);
        shards.insert(sourceId, { id: lastInsertRowid, title: c.title, section: c.section, body: c.text, idents });
        if (c.embedding) insertVec.run(lastInsertRowid, sourceId, Buffer.from(c.embedding.buffer, c.embedding.byteOffset, c.embedding.byteLength));
      }
    }
  };
  const totals = (sourceId: string) => totalsOf.get(sourceId, sourceId) as { pages: number; chunks: number };
  const replace = db.transaction((sourceId: string, pages: PageChunks[]) => {
    shards.drop(sourceId);
    deleteChunks.run(sourceId);
    deletePages.run(sourceId);
    insertPages(sourceId, pages);
    return totals(sourceId);
  });
  const apply = db.transaction((sourceId: string, upsert: PageChunks[], remove: string[]) => {
    for (const url of [...remove, ...upsert.map((p) => p.url)]) {
      for (const row of pageRows.all(sourceId, url) as ShardRow[]) shards.remove(sourceId, row);
      deletePageChunks.run(sourceId, url);
      deletePage.run(sourceId, url);
    }
    insertPages(sourceId, upsert);
    return totals(sourceId);
  });
  const remove = db.transaction((sourceId: string) => {
    shards.drop(sourceId);
    deleteChunks.run(sourceId);
    deletePages.run(sourceId);
  });

  const vectors = makeVectorStore(db);

  return {
    vectorSearch: async (vector, sourceIds, limit) => vectors.search(vector, sourceIds, limit),
    async retrieve({ query, sourceIds, limit }) {
      freshStats();
      const terms: Array<QueryTerm & { df: number }> = [];
      for (const word of queryWords(query)) {
        const term = porterStem(word);
        if (terms.some((t) => t.term === term)) continue;
        const n = df(term);
        terms.push({ term, text: word, df: n, weight: Math.log(1 + (total - n + 0.5) / (n + 0.5)) });
      }
      // A word no chunk contains weighs as much as the rarest known one: enough to
      // mark an off-topic question, not so much that one typo sinks a good answer.
      const rarest = Math.max(1, ...terms.filter((t) => t.df > 0).map((t) => t.weight));
      for (const t of terms) if (t.df === 0) t.weight = rarest;
      // In a large index, candidates come from the telling words; very common ones only rank them.
      const known = terms.filter((t) => t.df > 0);
      const telling = total >= GATING_MIN_CHUNKS ? known.filter((t) => t.df <= total * COMMON_SHARE) : known;
      const selectors = (telling.length > 0 ? telling : [...known].sort((a, b) => a.df - b.df).slice(0, 2)).map((t) => t.text);
      const publicTerms = terms.map(({ term, text, weight }) => ({ term, text, weight }));
      const words = terms.map((t) => t.text);
      const select = selectors.length > 0 ? selectors : undefined;
      const match = buildMatch(words, sourceIds, select);
      if (!match) return { chunks: [], terms: publicTerms };
      // One source: its own shard ranks only its passages. Several or all (or no shard yet):
      // the shared table, filtered inside MATCH.
      const single = sourceIds?.length === 1 ? sourceIds[0]! : null;
      const rows = ((single && shards.search(single, buildMatch(words, undefined, select)!, limit)) ?? search.all(match, limit)) as Array<Omit<RetrievedChunk, "score" | "matched" | "titleMatched" | "headingMatched"> & { id: number; rank: number; idents: string }>;
      const matcher = makeTermMatcher(terms.map((t) => t.term));
      const chunks = rows.map(({ id, rank, idents, ...row }) => ({
        ...row,
        key: String(id),
        score: -rank,
        matched: matcher(`${row.title} ${row.section} ${row.text} ${idents}`),
        titleMatched: matcher(`${row.title} ${row.url.slice(row.url.lastIndexOf("/") + 1).replace(/\.[a-z]+$/, "")}`),
        headingMatched: matcher(`${row.section} ${identifierParts(row.section)}`),
      }));
      return { chunks, terms: publicTerms };
    },
    writer: {
      async pageHashes(sourceId) {
        return new Map((hashesOf.all(sourceId) as Array<{ url: string; hash: string }>).map((r) => [r.url, r.hash]));
      },
      async applyChanges(sourceId, { upsert, remove }) {
        return apply.immediate(sourceId, upsert, remove);
      },
      async replaceSource(sourceId, pages) {
        return replace.immediate(sourceId, pages);
      },
      async removeSource(sourceId) {
        remove.immediate(sourceId);
      },
    },
    stats() {
      const chunks = (db.prepare(`SELECT count(*) AS n FROM chunk`).get() as { n: number }).n;
      const pages = (db.prepare(`SELECT count(*) AS n FROM page`).get() as { n: number }).n;
      return { chunks, pages };
    },
    close: () => db.close(),
  };
}
