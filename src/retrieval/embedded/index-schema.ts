import type Database from "better-sqlite3";
import { StartupError } from "../../startup-error.ts";

export const SCHEMA_VERSION = 8;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS page (source_id TEXT NOT NULL, url TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (source_id, url));
CREATE TABLE IF NOT EXISTS chunk (
  id INTEGER PRIMARY KEY AUTOINCREMENT, source_id TEXT NOT NULL, url TEXT NOT NULL, anchor TEXT NOT NULL,
  title TEXT NOT NULL, section TEXT NOT NULL, body TEXT NOT NULL,
  links TEXT NOT NULL DEFAULT '', spans TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS chunk_by_source ON chunk (source_id, url);
CREATE TABLE IF NOT EXISTS chunk_vec (id INTEGER PRIMARY KEY, source_id TEXT NOT NULL, vec BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS segment (
  generation INTEGER PRIMARY KEY AUTOINCREMENT, source_id TEXT NOT NULL UNIQUE, docs INTEGER NOT NULL, tokens INTEGER NOT NULL,
  terms TEXT NOT NULL, rowids BLOB NOT NULL, lengths BLOB NOT NULL, starts BLOB NOT NULL, postings BLOB NOT NULL, freqs BLOB NOT NULL, masks BLOB NOT NULL);
CREATE TRIGGER IF NOT EXISTS chunk_ad AFTER DELETE ON chunk BEGIN
  DELETE FROM chunk_vec WHERE id = old.id;
END;
`;

/**
 * Version 7 and earlier reused a deleted passage's row id (the highest ones, as a sync deletes and re-adds a page's):
 * a server still holding the segment of before another process's sync then read the new passage in the old one's
 * place, and cited a page for text it does not hold. Rebuilt with AUTOINCREMENT, keeping every row id, so a stale
 * segment's ids are only ever missing (skipped), never another passage's.
 */
function neverReuseRowIds(db: Database.Database) {
  db.exec(`
    CREATE TABLE chunk_v8 (
      id INTEGER PRIMARY KEY AUTOINCREMENT, source_id TEXT NOT NULL, url TEXT NOT NULL, anchor TEXT NOT NULL,
      title TEXT NOT NULL, section TEXT NOT NULL, body TEXT NOT NULL,
      links TEXT NOT NULL DEFAULT '', spans TEXT NOT NULL DEFAULT '');
    INSERT INTO chunk_v8 (id, source_id, url, anchor, title, section, body, links, spans)
      SELECT id, source_id, url, anchor, title, section, body, links, spans FROM chunk;
    DROP TRIGGER IF EXISTS chunk_ad; DROP INDEX IF EXISTS chunk_by_source; DROP TABLE chunk;
    ALTER TABLE chunk_v8 RENAME TO chunk;`);
}

/**
 * Brings the index file to the current schema and returns the sources whose
 * segments must be (re)built. Version 7 reused row ids (see neverReuseRowIds). Version 6 lacked passages' section spans and
 * version 5 their links too: the columns are added, empty until the next sync
 * re-reads the pages (a passage without spans is one section). Version 4 kept the same
 * passages under SQLite FTS5 tables: those are dropped and the passages kept.
 * Older or unknown versions are derived data and start empty (re-add their sources).
 */
export function migrateIndex(db: Database.Database): string[] {
  const version = () => db.pragma("user_version", { simple: true }) as number;
  if (version() === SCHEMA_VERSION) {
    db.exec(SCHEMA);
    return [];
  }
  // Another process may be upgrading the same file (a large index takes tens of seconds): wait for it, then find it done.
  const timeout = db.pragma("busy_timeout", { simple: true }) as number;
  db.pragma("busy_timeout = 600000");
  try {
    let from = SCHEMA_VERSION;
    let rebuilt: string[] = [];
    db.transaction(() => {
      from = version();
      if (from === SCHEMA_VERSION) return;
      // Written by a newer docent: dropping it as an unknown version would throw away what that version indexed.
      if (from > SCHEMA_VERSION) {
        throw new StartupError(
          `The index ${db.name} was written by a newer docent (index version ${from}, this one reads ${SCHEMA_VERSION}); run that version, or move the file away to re-index.`,
        );
      }
      rebuilt = migrateFrom(db, from);
    }).immediate();
    db.exec(SCHEMA);
    // The rebuilt or dropped tables leave free pages behind (the old passages' copy): give them back once
    // (unless another connection is reading: then SQLite reuses them as it writes).
    if (from >= 4 && from < SCHEMA_VERSION) {
      try {
        db.exec("VACUUM");
      } catch {
        /* busy: keep the free pages */
      }
    }
    return rebuilt;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}

function migrateFrom(db: Database.Database, version: number): string[] {
  if (version >= 5 && version <= 7) {
    db.transaction(() => {
      if (version === 5) db.exec(`ALTER TABLE chunk ADD COLUMN links TEXT NOT NULL DEFAULT ''`);
      if (version <= 6) db.exec(`ALTER TABLE chunk ADD COLUMN spans TEXT NOT NULL DEFAULT ''`);
      neverReuseRowIds(db);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
    db.exec(SCHEMA);
    return [];
  }
  const rebuild = db.transaction(() => {
    let sources: string[] = [];
    const tables = (like: string) =>
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ? ESCAPE '\\'`).pluck().all(like) as string[];
    db.exec(`DROP TRIGGER IF EXISTS chunk_ai; DROP TRIGGER IF EXISTS chunk_ad; DROP TABLE IF EXISTS chunk_vocab; DROP TABLE IF EXISTS chunk_fts;`);
    for (const shard of tables("fts\\_s%")) db.exec(`DROP TABLE IF EXISTS "${shard}"`);
    if (version === 4) {
      db.exec(
        `ALTER TABLE chunk DROP COLUMN src; ALTER TABLE chunk DROP COLUMN idents; ALTER TABLE chunk ADD COLUMN links TEXT NOT NULL DEFAULT ''; ALTER TABLE chunk ADD COLUMN spans TEXT NOT NULL DEFAULT '';`,
      );
      neverReuseRowIds(db);
      sources = db.prepare(`SELECT DISTINCT source_id FROM chunk`).pluck().all() as string[];
    } else {
      db.exec(`DROP TABLE IF EXISTS chunk_vec; DROP TABLE IF EXISTS chunk; DROP TABLE IF EXISTS page; DROP TABLE IF EXISTS segment;`);
    }
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    return sources;
  })();
  return rebuild;
}
