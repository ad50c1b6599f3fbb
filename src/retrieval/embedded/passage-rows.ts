import type Database from "better-sqlite3";
import type { Chunk } from "../../core/retriever.ts";
import { readLinks } from "../stored-links.ts";
import { readSpans } from "../stored-spans.ts";

/** A stored passage as searches return it, by its row id. */
export type StoredPassage = Omit<Chunk, "embedding"> & { id: number };

/** Reads passages by row id in one statement (lexical and vector searches both end here). */
export function makePassageRows(db: Database.Database): (ids: readonly number[]) => Map<number, StoredPassage> {
  const byIds = db.prepare(`SELECT id, source_id AS sourceId, url, anchor, title, section, body AS text, links, spans FROM chunk WHERE id IN (SELECT value FROM json_each(?))`);
  return (ids) => {
    const rows = byIds.all(JSON.stringify(ids)) as Array<Omit<StoredPassage, "links" | "spans"> & { links: string; spans: string }>;
    return new Map(rows.map(({ links, spans, ...row }) => [row.id, { ...row, links: readLinks(links), ...(spans && { spans: readSpans(spans) }) }]));
  };
}
