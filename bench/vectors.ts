import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openSqliteIndex } from "../src/retrieval/embedded/sqlite-index.ts";
import { GRAPH_MIN_FLOATS } from "../src/retrieval/embedded/vector-graphs.ts";

/**
 * npm run bench -- vectors [--vectors 156000] [--dims 384] [--sources 70] [--queries 200]
 * (the defaults: the retrieval bench's ×10 index, one 384-dimension vector a passage).
 * Stores synthetic unit vectors (clustered, as embeddings of passages on shared
 * topics are) in the embedded index, then searches them twice: every source by
 * exact scan (graphs switched off) and through the HNSW graphs built for large
 * sources, unfiltered and filtered to one source. Prints the graphs' build time,
 * latency p50/p99 and recall@10 against the exact scan. No embedding model
 * can be reached here, so real embeddings' recall is not measured; clustered
 * vectors are a middle case between real embeddings and uniform noise.
 */
const { values } = parseArgs({
  args: process.argv.slice(3),
  options: {
    vectors: { type: "string", default: "156000" },
    dims: { type: "string", default: "384" },
    sources: { type: "string", default: "70" },
    queries: { type: "string", default: "200" },
  },
});
const total = Number(values.vectors);
const dims = Number(values.dims);
const sourceCount = Number(values.sources);
const queries = Number(values.queries);
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "docent-vectors-")), "index.db");

let state = 42;
const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
const unit = (v: Float32Array) => {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
const centres = Array.from({ length: 200 }, () => Float32Array.from({ length: dims }, random));
const near = (centre: Float32Array, spread: number) => unit(centre.map((c) => c + random() * spread));

const ids = Array.from({ length: sourceCount }, () => randomUUID());
const stored: Float32Array[] = [];
let started = performance.now();
const writer = openSqliteIndex(file);
const perSource = Math.ceil(total / sourceCount);
for (const [s, id] of ids.entries()) {
  const pages = Array.from({ length: Math.min(perSource, total - s * perSource) }, (_, i) => {
    const embedding = near(centres[(s * 7 + i) % centres.length]!, 1.2);
    stored.push(embedding);
    const url = `https://x/${s}/${i}.html`;
    return { url, hash: url, chunks: [{ sourceId: id, url, anchor: "", title: `p${i}`, section: "", text: `passage ${i}`, embedding }] };
  });
  await writer.writer.replaceSource(id, pages);
}
writer.close();
console.log(
  `vectors bench: ${total} vectors of ${dims} dimensions in ${sourceCount} sources (written in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
);

const asks = Array.from({ length: queries }, () => near(stored[Math.floor(((random() + 1) / 2) * stored.length)]!, 0.4));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function measure(index: ReturnType<typeof openSqliteIndex>, filtered: boolean) {
  const times: number[] = [];
  const found: string[][] = [];
  for (const [i, query] of asks.entries()) {
    const scope = filtered ? [ids[i % ids.length]!] : undefined;
    const t = performance.now();
    const hits = await index.vectorSearch(query, scope, 10);
    times.push(performance.now() - t);
    found.push(hits.map((h) => h.url));
  }
  return { p50: pct(times, 0.5), p99: pct(times, 0.99), found };
}

const exact = openSqliteIndex(file, { preload: true, graphMinFloats: Number.POSITIVE_INFINITY });
const exactAll = await measure(exact, false);
const exactOne = await measure(exact, true);
exact.close();

started = performance.now();
const graphed = openSqliteIndex(file, { preload: true });
const wanted = perSource * dims >= GRAPH_MIN_FLOATS ? sourceCount : 0;
while (graphed.stats().graphs < wanted) await new Promise((resolve) => setTimeout(resolve, 50));
const built = (performance.now() - started) / 1000;
const graphAll = await measure(graphed, false);
const graphOne = await measure(graphed, true);
graphed.close();
started = performance.now();
const reopened = openSqliteIndex(file, { preload: true });
const opened = (performance.now() - started) / 1000;
while (reopened.stats().graphs < wanted) await new Promise((resolve) => setTimeout(resolve, 20));
const readBack = (performance.now() - started) / 1000 - opened;
reopened.close();

const recall = (got: string[][], truth: string[][]) =>
  got.reduce((n, hits, i) => n + hits.filter((url) => truth[i]!.includes(url)).length, 0) / truth.reduce((n, t) => n + t.length, 0);
const row = (label: string, a: string, b: string) => console.log(`  ${label.padEnd(34)}${a.padStart(18)}${b.padStart(18)}`);
console.log(
  `  sources searched through a graph: ${wanted} of ${sourceCount}; graphs built in ${built.toFixed(1)} s (worker thread); at the next start the index and vectors loaded in ${opened.toFixed(2)} s and every graph was found and read ${readBack.toFixed(2)} s later`,
);
row("", "exact scan", "HNSW graphs");
row("unfiltered, p50 / p99", `${exactAll.p50.toFixed(2)} / ${exactAll.p99.toFixed(2)} ms`, `${graphAll.p50.toFixed(2)} / ${graphAll.p99.toFixed(2)} ms`);
row("one source, p50 / p99", `${exactOne.p50.toFixed(2)} / ${exactOne.p99.toFixed(2)} ms`, `${graphOne.p50.toFixed(2)} / ${graphOne.p99.toFixed(2)} ms`);
row("recall@10 against the exact scan", "1.000", `${recall(graphAll.found, exactAll.found).toFixed(3)} / ${recall(graphOne.found, exactOne.found).toFixed(3)}`);
fs.rmSync(path.dirname(file), { recursive: true, force: true });
