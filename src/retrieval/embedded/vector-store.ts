import type Database from "better-sqlite3";
import type { RetrievedChunk } from "../../core/retriever.ts";
import { makePassageRows } from "./passage-rows.ts";
import { makeVectorGraphs, searchGraph, type VectorGraph } from "./vector-graphs.ts";

/** One source's embeddings of one length, end to end in one array (unit vectors, so a dot product is the cosine). */
interface SourceVectors {
  ids: number[];
  dims: number;
  vectors: Float32Array;
  /** Set once a large source's HNSW graph is ready; its vectors are then dropped (the graph holds them). */
  graph?: VectorGraph;
}

const NO_VECTORS = new Float32Array(0);

/**
 * Cosine search over the stored passage embeddings, held in memory per source:
 * an exact scan for small sources, an HNSW graph for large ones (vector-graphs.ts,
 * built off the request path; exact until it is ready). A search never reads
 * the database for them: the index's refresh (a write here, or another
 * connection's commit seen by the timer) reloads only the sources whose segment changed.
 */
export function makeVectorStore(db: Database.Database, graphOptions: Parameters<typeof makeVectorGraphs>[0] = { dir: null }) {
  const graphs = makeVectorGraphs(graphOptions);
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

  /** Swaps a large source's scan for its graph once the graph is ready (a group replaced meanwhile is simply dropped). */
  const withGraphs = (sourceId: string, groups: SourceVectors[]) => {
    for (const group of groups) {
      if (!graphs.wanted(group)) continue;
      const isCurrent = () => bySource?.get(sourceId)?.includes(group) === true;
      void graphs.open(sourceId, group, isCurrent).then((graph) => {
        if (graph && isCurrent()) {
          group.graph = graph;
          group.vectors = NO_VECTORS;
        } else if (bySource && !bySource.has(sourceId)) {
          // Removed while its graph was built: the file just written is nobody's.
          graphs.forget(sourceId);
        }
      });
    }
    return groups;
  };

  const load = () => (bySource ??= new Map((sources.all() as string[]).map((id) => [id, withGraphs(id, read(id))])));

  return {
    /** Reads every source's vectors now (a server, at start), not in its first vector search. */
    load,
    /** Reloads the vectors of the sources that changed and forgets those no longer live. */
    refresh(changed: readonly string[], live: ReadonlySet<string>) {
      passagesById.clear();
      if (!bySource) return;
      const next = new Map([...bySource].filter(([id]) => live.has(id) && !changed.includes(id)));
      for (const id of changed) next.set(id, withGraphs(id, read(id)));
      for (const id of bySource.keys()) if (!live.has(id)) graphs.forget(id);
      bySource = next;
    },
    search(query: Float32Array, sourceIds: readonly string[] | undefined, limit: number): RetrievedChunk[] {
      const loaded = load();
      const top: Array<{ id: number; score: number }> = [];
      let asArray: number[] | undefined;
      for (const id of sourceIds ?? loaded.keys()) {
        for (const { ids, dims, vectors, graph } of loaded.get(id) ?? []) {
          if (dims !== query.length) continue;
          if (graph) {
            asArray ??= Array.from(query);
            for (const found of searchGraph(graph, asArray, limit)) keep(top, found, limit);
            continue;
          }
          for (let i = 0, at = 0; i < ids.length; i++, at += dims) {
            let dot = 0;
            for (let d = 0; d < dims; d++) dot += vectors[at + d]! * query[d]!;
            if (top.length < limit || dot > top[top.length - 1]!.score) keep(top, { id: ids[i]!, score: dot }, limit);
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
    /** How many groups are searched through a ready graph. */
    graphs: () => [...(bySource?.values() ?? [])].flat().filter((group) => group.graph).length,
    close: () => graphs.close(),
  };
}

/** Adds a hit to the best `limit` so far, best first. */
function keep(top: Array<{ id: number; score: number }>, hit: { id: number; score: number }, limit: number) {
  if (top.length >= limit && hit.score <= top[top.length - 1]!.score) return;
  top.push(hit);
  top.sort((a, b) => b.score - a.score);
  if (top.length > limit) top.pop();
}
