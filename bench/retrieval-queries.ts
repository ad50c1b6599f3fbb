import fs from "node:fs";
import path from "node:path";
import { rankPages } from "../src/core/rank-pages.ts";
import { selectSources } from "../src/core/select-sources.ts";
import type { SourceInfo } from "../src/core/source-catalog.ts";
import { openSqliteIndex } from "../src/retrieval/embedded/sqlite-index.ts";
import { englishAnalyzer } from "../src/text/english-analyzer.ts";

/** The query half of `npm run bench -- retrieval`, run in its own process by bench/retrieval.ts. */
const [dir, questionsFile, roundsArg] = process.argv.slice(2) as [string, string, string];
const questions: string[] = fs
  .readFileSync(questionsFile, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l).question);
const rounds = Number(roundsArg);
const ids = JSON.parse(fs.readFileSync(path.join(dir, "catalogs.json"), "utf8")) as { x1: string[]; xN: string[]; replicas: number };
const catalogOf = (list: string[]): SourceInfo[] =>
  list.map((id, i) => ({
    id,
    name: `source ${i}`,
    description: "",
    baseUrl: "",
    origin: "",
    pages: 0,
    chunks: 0,
    createdAt: new Date(),
    updatedAt: new Date(),
  }));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function latency(label: string, run: (q: string, i: number) => Promise<unknown>) {
  // One unmeasured pass first, as a running server has long since compiled its hot paths.
  for (const [i, q] of questions.entries()) await run(q, i);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [i, q] of questions.entries()) {
      const t = performance.now();
      await run(q, i);
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  console.log(`  ${label.padEnd(40)} p50 ${at(0.5).padStart(6)} ms   p99 ${at(0.99).padStart(6)} ms   (n=${times.length})`);
}

const baseline = process.memoryUsage().rss;
for (const [label, file, list] of [
  ["×1", "index.db", ids.x1],
  [`×${ids.replicas}`, "index-x.db", ids.xN],
] as const) {
  const opening = performance.now();
  const idx = openSqliteIndex(path.join(dir, file), { preload: true });
  const opened = performance.now() - opening;
  const cat = catalogOf(list);
  console.log(`query latency at ${label} (${idx.stats().chunks} chunks, opened from disk and loaded in ${opened.toFixed(0)} ms), retrieve 30 chunks:`);
  await latency("unfiltered (all sources)", (q) => idx.retrieve({ query: q, limit: 30 }));
  await latency("filtered to one source", (q, i) => idx.retrieve({ query: q, sourceIds: [cat[i % cat.length]!.id], limit: 30 }));
  await latency("agent: choose sources + rank pages", (q) => selectSources(q, cat, idx.retrieve, { limit: 30, analyzer: englishAnalyzer }));
  await latency("explicit: retrieve + rank pages", async (q, i) =>
    rankPages(await idx.retrieve({ query: q, sourceIds: [cat[i % cat.length]!.id], limit: 30 })),
  );
  console.log(`  RSS ${mb(process.memoryUsage().rss)} (process with this index open; ${mb(baseline)} before any index)`);
  idx.close();
}
