import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

/** The part of hnswlib-node's HierarchicalNSW a search uses ("ip" space on unit vectors: distance = 1 − cosine). */
export interface VectorGraph {
  searchKnn(query: number[], k: number): { neighbors: number[]; distances: number[] };
  setEf(ef: number): void;
  getCurrentCount(): number;
}

type Outcome = { ok: boolean; message?: string; file?: string; built?: boolean };

export interface GraphInput {
  ids: number[];
  dims: number;
  vectors: Float32Array;
}

/**
 * From this many stored floats (about 1,000 vectors of 384 dimensions, 260 of 1536) a
 * source's vectors are searched through an HNSW graph; below it an exact scan takes
 * well under a millisecond and is exact. Weaviate's "dynamic" index does the same
 * (flat, then HNSW past a size), here measured by work since dimensions vary. Per
 * source, so a search over every source visits one small graph per source rather
 * than scanning all vectors (`npm run bench -- vectors`).
 */
export const GRAPH_MIN_FLOATS = 400_000;
/** hnswlib's usual settings; ef at search is at least this (and at least the limit). */
const M = 16;
const EF_CONSTRUCTION = 200;
const EF_SEARCH = 100;

const hnsw = () =>
  createRequire(import.meta.url)("hnswlib-node") as {
    HierarchicalNSW: new (space: string, dims: number) => VectorGraph & { readIndex(file: string): Promise<boolean> };
  };

/** Temporary files of builds that never finished (a process stopped while writing) are swept after this long. */
const STALE_TEMPORARY_MS = 3_600_000;

/**
 * HNSW graphs of large sources' embeddings, kept as files beside the index
 * (`dir`) and named by a hash of the ids and vectors they hold, so a graph is
 * never used for vectors it was not built from, and a process finds the graph
 * another built (two that start at once may both build it: the same file,
 * renamed into place twice). A worker thread, one build at a time, hashes the
 * vectors, and builds the graph when there is no file; the main thread only
 * copies the vectors to it, and until the graph is ready the caller scans
 * exactly. A build whose vectors are no longer current is skipped, and a
 * failure leaves that group on the exact scan.
 */
export function makeVectorGraphs({ dir, minFloats = GRAPH_MIN_FLOATS }: { dir: string | null; minFloats?: number }) {
  let worker: Worker | null = null;
  let jobs = 0;
  let pending = 0;
  const waiting = new Map<number, (outcome: Outcome) => void>();
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  if (dir) sweepTemporary(dir);

  const settleAll = (message: string) => {
    for (const settle of waiting.values()) settle({ ok: false, message });
    waiting.clear();
  };
  const startWorker = () => {
    const started = new Worker(new URL("./vector-graph-worker.mjs", import.meta.url));
    started.unref();
    started.on("message", ({ job, ...outcome }) => {
      waiting.get(job)?.(outcome);
      waiting.delete(job);
    });
    // Only the current worker's end fails what waits: one stopped when idle has no jobs.
    const fail = (error: unknown) => {
      if (worker !== started) return;
      worker = null;
      settleAll(String(error));
    };
    started.on("error", fail);
    started.on("exit", () => fail("the graph worker stopped"));
    return started;
  };
  const ask = (input: GraphInput, prefix: string) =>
    new Promise<Outcome>((settle) => {
      if (closed || !dir) return settle({ ok: false, message: "closed" });
      try {
        worker ??= startWorker();
        const job = ++jobs;
        waiting.set(job, settle);
        // A copy, handed over rather than cloned: the caller keeps scanning its own until the graph is ready.
        const vectors = input.vectors.slice(0, input.ids.length * input.dims);
        worker.postMessage({ job, ids: input.ids, dims: input.dims, vectors, dir, prefix, m: M, efConstruction: EF_CONSTRUCTION }, [vectors.buffer]);
      } catch (error) {
        settle({ ok: false, message: String(error) });
      }
    });
  const stopWhenIdle = () => {
    if (pending > 0 || !worker) return;
    const idle = worker;
    worker = null;
    void idle.terminate();
  };

  return {
    /** Whether these vectors are worth a graph (and there is somewhere to keep one). */
    wanted: ({ ids, dims }: GraphInput) => dir !== null && ids.length * dims >= minFloats,

    /**
     * The graph of exactly these vectors, found or built; null when that fails, or
     * when `isCurrent` says the vectors were replaced meanwhile (then nothing is built
     * for them, and a graph built for them is not read).
     */
    async open(sourceId: string, input: GraphInput, isCurrent: () => boolean): Promise<VectorGraph | null> {
      if (!dir || !/^[\w-]+$/.test(sourceId)) return null;
      const prefix = `${sourceId}.${input.dims}.`;
      pending++;
      const outcome = queue.then((): Outcome | Promise<Outcome> => (closed || !isCurrent() ? { ok: false, message: "replaced" } : ask(input, prefix)));
      queue = outcome.catch(() => undefined);
      const { ok, file } = await outcome;
      pending--;
      stopWhenIdle();
      if (!ok || !file || closed || !isCurrent()) return null;
      // Only a process whose vectors are current clears the source's other graphs.
      removeOthers(dir, prefix, file);
      try {
        const graph = new (hnsw().HierarchicalNSW)("ip", input.dims);
        await graph.readIndex(file);
        return graph.getCurrentCount() === input.ids.length ? graph : null;
      } catch {
        return null;
      }
    },

    /** Deletes the graph files of a source no longer in the index. */
    forget(sourceId: string) {
      if (dir && /^[\w-]+$/.test(sourceId)) removeOthers(dir, `${sourceId}.`, null);
    },

    close() {
      closed = true;
      const last = worker;
      worker = null;
      void last?.terminate();
      settleAll("closed");
    },
  };
}

/** Searches one graph (the query as a plain array, which the addon takes): the `limit` nearest passages as (id, cosine). */
export function searchGraph(graph: VectorGraph, query: number[], limit: number): Array<{ id: number; score: number }> {
  const k = Math.min(limit, graph.getCurrentCount());
  if (k === 0) return [];
  graph.setEf(Math.max(EF_SEARCH, k));
  const { neighbors, distances } = graph.searchKnn(query, k);
  return neighbors.map((id, i) => ({ id, score: 1 - distances[i]! }));
}

/** The names in a folder; none when it does not exist (yet). */
function namesIn(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function removeOthers(dir: string, prefix: string, keep: string | null) {
  for (const name of namesIn(dir)) {
    const file = path.join(dir, name);
    if (name.startsWith(prefix) && name.endsWith(".hnsw") && file !== keep) fs.rmSync(file, { force: true });
  }
}

/** Removes temporary files of builds that never finished (their process stopped while writing). */
function sweepTemporary(dir: string) {
  for (const name of namesIn(dir)) {
    if (!name.endsWith(".tmp")) continue;
    const file = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > STALE_TEMPORARY_MS) fs.rmSync(file, { force: true });
    } catch {
      // gone already
    }
  }
}
