import type Database from "better-sqlite3";
import type { RetrievedChunk } from "../../core/retriever.ts";
import { makePassageRows } from "./passage-rows.ts";

/** One source's embeddings of one length, end to end in one array (unit vectors, so a dot product is the cosine). */
interface SourceVectors {
  ids: number[];
  dims: number;
  vectors: Float32Array;
}

/**
 * Exact cosine search over the stored passage embeddings, held in memory per
 * source. A search never reads the database for them: the index's refresh
 * (a write here, or another connection's commit seen by the timer) reloads
 * only the sources whose segment changed. Meant for the embedded install's
 * scale (see README: sqlite-vec was measured and is no faster); Weaviate serves large ones.
 */
export function makeVectorStore(db: Database.Database) {
  const ofSource = db.prepare(`SELECT id, vec FROM chunk_vec WHERE source_id = ? ORDER BY id`);
  const sources = db.prepare(`SELECT DISTINCT source_id FROM chunk_vec`).pluck();
  const passagesById = makePassageRows(db);
  let bySource: Map<string, SourceVectors[]> | null = null;

  const read = (sourceId: string): SourceVectors[] => {
    const byDims = new Map<number, { ids: number[]; rows: Buffer[] }>();
    for (const row of ofSource.iterate(sourceId) as Iterable<{ id: number; vec: Buffer }>) {
      const dims = row.vec.byteLength / 4;
      const group = byDims.get(dims) ?? { ids: [], rows: [] };
      group.ids.push(row.id);
      group.rows.push(row.vec);
      byDims.set(dims, group);
    }
    return [...byDims].map(([dims, { ids, rows }]) => {
      const vectors = new Float32Array(ids.length * dims);
      rows.forEach((vec, i) => {
        vectors.set(new Float32Array(vec.buffer, vec.byteOffset, dims), i * dims);
      });
      return { ids, dims, vectors };
    });
  };

  const load = () => (bySource ??= new Map((sources.all() as string[]).map((id) => [id, read(id)])));

  return {
    /** Reads every source's vectors now (a server, at start), not in its first vector search. */
    load,
    /** Reloads the vectors of the sources that changed and forgets those no longer live. */
    refresh(changed: readonly string[], live: ReadonlySet<string>) {
      passagesById.clear();
      if (!bySource) return;
      const next = new Map([...bySource].filter(([id]) => live.has(id) && !changed.includes(id)));
      for (const id of changed) next.set(id, read(id));
      bySource = next;
    },
    search(query: Float32Array, sourceIds: readonly string[] | undefined, limit: number): RetrievedChunk[] {
      const loaded = load();
      const top: Array<{ id: number; score: number }> = [];
      for (const id of sourceIds ?? loaded.keys()) {
        for (const { ids, dims, vectors } of loaded.get(id) ?? []) {
          if (dims !== query.length) continue;
          for (let i = 0, at = 0; i < ids.length; i++, at += dims) {
            let dot = 0;
            for (let d = 0; d < dims; d++) dot += vectors[at + d]! * query[d]!;
            if (top.length < limit || dot > top[top.length - 1]!.score) {
              top.push({ id: ids[i]!, score: dot });
              top.sort((a, b) => b.score - a.score);
              if (top.length > limit) top.pop();
            }
          }
        }
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
