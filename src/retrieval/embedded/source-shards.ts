import type Database from "better-sqlite3";
import { sourceToken } from "./fts-query.ts";

const COLUMNS = "title, section, body, idents";
const TOKENIZE = "porter unicode61 remove_diacritics 2";
/** BM25 column weights: title, section, body, identifier parts (as in the shared table). */
export const SHARD_RANK = "bm25(4.0, 2.0, 1.0, 1.0)";

export interface ShardRow {
  id: number | bigint;
  title: string;
  section: string;
  body: string;
  idents: string;
}

/**
 * One extra FTS5 table per source over the same passages, so a search in one
 * source ranks only that source's matches instead of intersecting with every
 * source's postings in the shared table. Written in the same transactions as
 * the shared table; dropped with the source.
 */
export function makeSourceShards(db: Database.Database) {
  const name = (sourceId: string) => `fts_${sourceToken(sourceId)}`;
  const statements = new Map<string, Database.Statement>();
  const statement = (key: string, sql: () => string) => {
    let s = statements.get(key);
    if (!s) {
      s = db.prepare(sql());
      statements.set(key, s);
    }
    return s;
  };
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck();

  return {
    ensure(sourceId: string) {
      const table = name(sourceId);
      if (exists.get(table)) return;
      db.exec(`CREATE VIRTUAL TABLE ${table} USING fts5(${COLUMNS}, content='chunk', content_rowid='id', tokenize='${TOKENIZE}')`);
      db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('rank', ?)`).run(SHARD_RANK);
    },
    insert(sourceId: string, row: ShardRow) {
      const table = name(sourceId);
      statement(`i:${table}`, () => `INSERT INTO ${table} (rowid, ${COLUMNS}) VALUES (?, ?, ?, ?, ?)`).run(row.id, row.title, row.section, row.body, row.idents);
    },
    remove(sourceId: string, row: ShardRow) {
      const table = name(sourceId);
      statement(`d:${table}`, () => `INSERT INTO ${table} (${table}, rowid, ${COLUMNS}) VALUES ('delete', ?, ?, ?, ?, ?)`).run(row.id, row.title, row.section, row.body, row.idents);
    },
    drop(sourceId: string) {
      const table = name(sourceId);
      for (const key of [`i:${table}`, `d:${table}`, `s:${table}`]) statements.delete(key);
      db.exec(`DROP TABLE IF EXISTS ${table}`);
    },
    /** The source's best passages for a MATCH expression, or null when the source has no shard. */
    search<R>(sourceId: string, match: string, limit: number): R[] | null {
      const table = name(sourceId);
      if (!exists.get(table)) return null;
      return statement(
        `s:${table}`,
        () => `WITH top AS (SELECT rowid AS id, rank FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?)
          SELECT c.id AS id, c.source_id AS sourceId, c.url, c.anchor, c.title, c.section, c.body AS text, c.idents, top.rank AS rank
          FROM top JOIN chunk c ON c.id = top.id ORDER BY top.rank`,
      ).all(match, limit) as R[];
    },
  };
}
