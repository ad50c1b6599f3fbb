import crypto from "node:crypto";
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

type Outcome = { ok: boolean; message?: string };

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

/**
 * HNSW graphs of large sources' embeddings, kept as files beside the index
 * (`dir`) and named by a hash of the ids and vectors they hold, so a graph is
 * never used for vectors it was not built from, and every process reading the
 * index shares one build. A missing graph is built in a worker thread (one at a
 * time), never on the request path; until it is ready the caller scans exactly.
 * Any failure leaves that source on the exact scan.
 */
export function makeVectorGraphs({ dir, minFloats = GRAPH_MIN_FLOATS }: { dir: string | null; minFloats?: number }) {
  let worker: Worker | null = null;
  let jobs = 0;
  const waiting = new Map<number, (outcome: Outcome) => void>();
  let builds: Promise<unknown> = Promise.resolve();
  const failed = new Set<string>();
  let closed = false;

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

  const settleAll = (message: string) => {
    for (const settle of waiting.values()) settle({ ok: false, message });
    waiting.clear();
  };

  const build = (input: GraphInput, file: string) =>
    new Promise<Outcome>((settle) => {
      if (closed) return settle({ ok: false, message: "closed" });
      worker ??= startWorker();
      const job = ++jobs;
      waiting.set(job, settle);
      // A copy: the caller keeps scanning its own vectors until the graph is ready.
      worker.postMessage({ job, ids: input.ids, dims: input.dims, vectors: input.vectors.slice(), file, m: M, efConstruction: EF_CONSTRUCTION });
    });

  const stopWhenIdle = () => {
    if (waiting.size === 0 && worker) {
      const idle = worker;
      worker = null;
      void idle.terminate();
    }
  };

  return {
    /** Whether these vectors are worth a graph (and there is somewhere to keep one). */
    wanted: ({ ids, dims }: GraphInput) => dir !== null && ids.length * dims >= minFloats,

    /** The graph of exactly these vectors: read from its file, built first when there is none; null when that fails. */
    async open(sourceId: string, input: GraphInput): Promise<VectorGraph | null> {
      if (!dir || !/^[\w-]+$/.test(sourceId)) return null;
      const prefix = `${sourceId}.${input.dims}.`;
      const file = path.join(dir, `${prefix}${fingerprint(input)}.hnsw`);
      if (failed.has(file)) return null;
      try {
        if (!fs.existsSync(file)) {
          fs.mkdirSync(dir, { recursive: true });
          const next = builds.then((): Promise<Outcome> | Outcome => (fs.existsSync(file) ? { ok: true } : build(input, file)));
          builds = next;
          const outcome = await next;
          stopWhenIdle();
          if (!outcome.ok) throw new Error(outcome.message);
          removeOthers(dir, prefix, file);
        }
        if (closed) return null;
        const graph = new (hnsw().HierarchicalNSW)("ip", input.dims);
        await graph.readIndex(file);
        if (graph.getCurrentCount() !== input.ids.length) throw new Error("graph size differs from its vectors");
        return graph;
      } catch {
        failed.add(file);
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

function fingerprint({ ids, dims, vectors }: GraphInput): string {
  const hash = crypto.createHash("sha256");
  hash.update(`${dims}:${ids.join(",")}:`);
  hash.update(new Uint8Array(vectors.buffer, vectors.byteOffset, ids.length * dims * 4));
  return hash.digest("hex").slice(0, 20);
}

function removeOthers(dir: string, prefix: string, keep: string | null) {
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    if (name.startsWith(prefix) && name.endsWith(".hnsw") && file !== keep) fs.rmSync(file, { force: true });
  }
}
