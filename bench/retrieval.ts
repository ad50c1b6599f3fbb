import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { SourceInfo } from "../src/core/source-catalog.ts";
import { dropDuplicates, readPage } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { openSqliteIndex } from "../src/retrieval/embedded/sqlite-index.ts";
import { documentationDir, type EvalSource } from "./debian-docs.ts";
import { sharedEvalFile } from "./eval/shared-file.ts";

/**
 * npm run bench -- retrieval [--replicas 10]
 * Builds the embedded index from the eval sources, then a copy with every
 * source replicated under distinct ids (~100k chunks at ×10), and prints
 * ingestion speed, index size, RSS and query latency (unfiltered, filtered to
 * one source, and the agent's whole choose-and-rank step), the queries in a
 * fresh process that only opens the indexes (bench/retrieval-queries.ts).
 */
const { values } = parseArgs({
  args: process.argv.slice(3),
  options: {
    sources: { type: "string", default: sharedEvalFile("sources.json") },
    questions: { type: "string", default: sharedEvalFile("dev.jsonl") },
    cache: { type: "string", default: path.resolve(import.meta.dirname, "../.eval-cache") },
    replicas: { type: "string", default: "10" },
    rounds: { type: "string", default: "20" },
  },
});
const sources: EvalSource[] = JSON.parse(fs.readFileSync(values.sources!, "utf8"));
const replicas = Number(values.replicas);
const rounds = Number(values.rounds);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docent-bench-"));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const fileSize = (file: string) => ["", "-wal", "-shm"].reduce((n, s) => n + (fs.existsSync(file + s) ? fs.statSync(file + s).size : 0), 0);

// 1. Ingestion at ×1, timed end to end: read, extract, chunk, de-duplicate, index.
const folders = sources.map((s) => ({ source: s, docs: listDocuments(documentationDir(s, values.cache!)) }));
const index = openSqliteIndex(path.join(dir, "index.db"));
const catalog: SourceInfo[] = [];
let pageCount = 0;
let started = performance.now();
const parsed = new Map<string, ReturnType<typeof dropDuplicates>["pages"]>();
for (const { source, docs } of folders) {
  const id = randomUUID();
  const read = await Promise.all(docs.map((d) => readPage(d, id, source.base_url)));
  const pages = dropDuplicates(read.flatMap((r) => ("page" in r ? [r.page] : []))).pages;
  await index.writer.replaceSource(id, pages);
  parsed.set(source.slug, pages);
  pageCount += pages.length;
  catalog.push({
    id,
    name: source.name,
    description: source.description,
    baseUrl: source.base_url,
    origin: "",
    pages: pages.length,
    chunks: 0,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
}
const ingestSeconds = (performance.now() - started) / 1000;
console.log(
  `ingestion ×1: ${pageCount} pages, ${index.stats().chunks} chunks in ${ingestSeconds.toFixed(1)} s = ${(pageCount / ingestSeconds).toFixed(0)} pages/s; index ${mb(fileSize(path.join(dir, "index.db")))}`,
);

// 2. The ×N replica: the same pages under distinct source ids.
const bigFile = path.join(dir, "index-x.db");
const big = openSqliteIndex(bigFile);
const bigCatalog: SourceInfo[] = [];
started = performance.now();
for (let r = 0; r < replicas; r++) {
  for (const source of sources) {
    const id = randomUUID();
    const pages = parsed.get(source.slug)!.map((p) => ({ ...p, chunks: p.chunks.map((c) => ({ ...c, sourceId: id })) }));
    await big.writer.replaceSource(id, pages);
    bigCatalog.push({ ...catalog.find((c) => c.name === source.name)!, id, name: `${source.name} #${r}` });
  }
}
const indexSeconds = (performance.now() - started) / 1000;
big.close();
const reopened = openSqliteIndex(bigFile); // measured from disk, as a restarted server would
const { chunks: bigChunks, pages: bigPages } = reopened.stats();
console.log(
  `index ×${replicas}: ${bigPages} pages, ${bigChunks} chunks, indexed in ${indexSeconds.toFixed(1)} s (${(bigPages / indexSeconds).toFixed(0)} pages/s, parsing excluded); index ${mb(fileSize(bigFile))}`,
);

// 3. Queries in a fresh process that only opens the indexes from disk, as a restarted server would,
//    so its RSS is the index's cost and not this process's parsed pages.
index.close();
reopened.close();
fs.writeFileSync(path.join(dir, "catalogs.json"), JSON.stringify({ x1: catalog.map((c) => c.id), xN: bigCatalog.map((c) => c.id), replicas }));
const child = spawnSync(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "retrieval-queries.ts"), dir, values.questions!, String(rounds)], {
  stdio: "inherit",
});
fs.rmSync(dir, { recursive: true, force: true });
process.exitCode = child.status ?? 1;
