import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { IndexWriter, PageChunks, RetrievedChunk, Retriever } from "../../core/retriever.ts";
import { buildMatch, sourceToken } from "./fts-query.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS page (source_id TEXT NOT NULL, url TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (source_id, url));
CREATE TABLE IF NOT EXISTS chunk (
  id INTEGER PRIMARY KEY, source_id TEXT NOT NULL, src TEXT NOT NULL, url TEXT NOT NULL, anchor TEXT NOT NULL,
  title TEXT NOT NULL, section TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chunk_by_source ON chunk (source_id, url);
CREATE VIRTUAL TABLE IF NOT EXISTS chunk_fts USING fts5(
  title, section, body, src, content='chunk', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS chunk_ai AFTER INSERT ON chunk BEGIN
  INSERT INTO chunk_fts (rowid, title, section, body, src) VALUES (new.id, new.title, new.section, new.body, new.src);
END;
CREATE TRIGGER IF NOT EXISTS chunk_ad AFTER DELETE ON chunk BEGIN
  INSERT INTO chunk_fts (chunk_fts, rowid, title, section, body, src) VALUES ('delete', old.id, old.title, old.section, old.body, old.src);
END;
`;

/** BM25 column weights: title, section, body, source token. */
const RANK = "bm25(4.0, 2.0, 1.0, 0.0)";

export interface SqliteIndex {
  retrieve: Retriever;
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
  db.exec(SCHEMA);
  db.prepare(`INSERT INTO chunk_fts (chunk_fts, rank) VALUES ('rank', ?)`).run(RANK);

  const search = db.prepare(
    `SELECT c.source_id AS sourceId, c.url, c.anchor, c.title, c.section, c.body AS text, f.rank AS rank
     FROM chunk_fts f JOIN chunk c ON c.id = f.rowid WHERE chunk_fts MATCH ? ORDER BY f.rank LIMIT ?`,
  );
  const deleteChunks = db.prepare(`DELETE FROM chunk WHERE source_id = ?`);
  const deletePages = db.prepare(`DELETE FROM page WHERE source_id = ?`);
  const insertPage = db.prepare(`INSERT OR REPLACE INTO page (source_id, url, hash) VALUES (?, ?, ?)`);
  const insertChunk = db.prepare(
    `INSERT INTO chunk (source_id, src, url, anchor, title, section, body) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );

  const replace = db.transaction((sourceId: string, pages: PageChunks[]) => {
    deleteChunks.run(sourceId);
    deletePages.run(sourceId);
    const src = sourceToken(sourceId);
    let chunks = 0;
    for (const page of pages) {
      insertPage.run(sourceId, page.url, page.hash);
      for (const c of page.chunks) {
        insertChunk.run(sourceId, src, c.url, c.anchor, c.title, c.section, c.text);
        chunks++;
      }
    }
    return { pages: pages.length, chunks };
  });
  const remove = db.transaction((sourceId: string) => {
    deleteChunks.run(sourceId);
    deletePages.run(sourceId);
  });

  return {
    async retrieve({ query, sourceIds, limit }) {
      const match = buildMatch(query, sourceIds);
      if (!match) return [];
      const rows = search.all(match, limit) as Array<Omit<RetrievedChunk, "score"> & { rank: number }>;
      return rows.map(({ rank, ...row }) => ({ ...row, score: -rank }));
    },
    writer: {
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
