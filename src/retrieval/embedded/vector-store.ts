import type Database from "better-sqlite3";
import type { RetrievedChunk } from "../../core/retriever.ts";
import { makePassageRows } from "./passage-rows.ts";

/**
 * Exact cosine search over the stored passage embeddings, held in memory per
 * source (unit vectors, so a dot product) and reloaded when another connection
 * commits or this one says it wrote (`invalidate`; SQLite's data_version only
 * counts other connections). Meant for the embedded install's scale; Weaviate serves large ones.
 */
export function makeVectorStore(db: Database.Database) {
  const dataVersion = db.prepare(`PRAGMA data_version`).pluck();
  const all = db.prepare(`SELECT id, source_id AS sourceId, vec FROM chunk_vec ORDER BY source_id, id`);
  const passagesById = makePassageRows(db);
  let version = -1;
  let dirty = true;
  let bySource = new Map<string, { ids: number[]; vectors: Float32Array[] }>();

  const load = () => {
    const v = dataVersion.get() as number;
    if (v === version && !dirty) return;
    version = v;
    dirty = false;
    bySource = new Map();
    for (const row of all.iterate() as Iterable<{ id: number; sourceId: string; vec: Buffer }>) {
      const entry = bySource.get(row.sourceId) ?? { ids: [], vectors: [] };
      entry.ids.push(row.id);
      entry.vectors.push(new Float32Array(row.vec.buffer.slice(row.vec.byteOffset, row.vec.byteOffset + row.vec.byteLength)));
      bySource.set(row.sourceId, entry);
    }
  };

  return {
    invalidate() {
      dirty = true;
      passagesById.clear();
    },
    search(query: Float32Array, sourceIds: readonly string[] | undefined, limit: number): RetrievedChunk[] {
      load();
      const top: Array<{ id: number; score: number }> = [];
      for (const [sourceId, entry] of bySource) {
        if (sourceIds && !sourceIds.includes(sourceId)) continue;
        entry.vectors.forEach((vec, i) => {
          if (vec.length !== query.length) return;
          let dot = 0;
          for (let d = 0; d < vec.length; d++) dot += vec[d]! * query[d]!;
          if (top.length < limit || dot > top[top.length - 1]!.score) {
            top.push({ id: entry.ids[i]!, score: dot });
            top.sort((a, b) => b.score - a.score);
            if (top.length > limit) top.pop();
          }
        });
      }
      if (top.length === 0) return [];
      const rows = passagesById(top.map((t) => t.id));
      return top.flatMap(({ id, score }) => {
        const row = rows.get(id);
        if (!row) return [];
        const { id: _, ...rest } = row;
        return [{ ...rest, key: String(id), score, matched: [], titleMatched: [], headingMatched: [] }];
      });
    },
  };
}
