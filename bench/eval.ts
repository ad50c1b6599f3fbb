import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { rankPages } from "../src/core/rank-pages.ts";
import { setAsideTerms } from "../src/core/set-aside-phrases.ts";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { silentLogger } from "../src/logging/logger.ts";
import { startServer } from "../src/server.ts";
import { documentationDir, type EvalSource } from "./debian-docs.ts";
import type { AskedQuestion } from "./eval/audit-sample.ts";
import { chooseSets, readQuestions } from "./eval/eval-sets.ts";
import { plainBm25 } from "./eval/plain-bm25-baseline.ts";
import { type Answer, createSetTally, normaliseUrl, TABLE_HEADER } from "./eval/set-tally.ts";
import { sharedEvalFile } from "./eval/shared-file.ts";
import { createReferenceFigures } from "./reference-figures.ts";

/**
 * npm run eval [-- --set heldout[,offtopic]] [--questions FILE] [--sources FILE] [--verbose] [--data-dir DIR] [--answers FILE]
 * Ingests the sources into a scratch data dir once, then asks every question
 * of every set (dev, check, check2, check3, check4, check5, check6, heldout, heldout2, heldout3, heldout4, heldout5, heldout6, heldout7, heldout8, offtopic, offtopic5, offtopic6, offtopic2, offtopic3, offtopic4, offtopic7, offtopic8; or the ones named by
 * `--set`, or one file) through the real HTTP API in explicit and agent mode,
 * prints each set's figures with plain BM25's beside them, and a closing table.
 * Nothing here knows any question: the same settings serve unseen ones.
 */
const { values } = parseArgs({
  options: {
    set: { type: "string" },
    questions: { type: "string" },
    sources: { type: "string", default: sharedEvalFile("sources.json") },
    cache: { type: "string", default: path.resolve(import.meta.dirname, "../.eval-cache") },
    verbose: { type: "boolean", default: false },
    /** Keep the index here and reuse sources already in it (for iterating; the default is a scratch dir). */
    "data-dir": { type: "string" },
    /** Write each on-topic ask (set, id, mode, question, gold pages, url_references, the answer) here as JSON lines, for bench/eval/reader-audit.ts. */
    answers: { type: "string" },
  },
});

const sources: EvalSource[] = JSON.parse(fs.readFileSync(values.sources!, "utf8"));
const sets = chooseSets({ set: values.set, questions: values.questions });

const dataDir = values["data-dir"] ? path.resolve(values["data-dir"]) : fs.mkdtempSync(path.join(os.tmpdir(), "docent-eval-"));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(OPENAI|ANTHROPIC|EMBEDDINGS)_/.test(k)));
// Questions go one after another as fast as answers come: no per-minute budget for this one key.
const server = await startServer(
  loadConfig({ ...env, DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "0", AGENT_MODEL: "extractive", RATE_LIMIT_PER_MINUTE: "0" }),
  { log: () => {}, logger: silentLogger() },
);
const key = (await server.services.keys.create("eval")).key;

const ids = new Map<string, string>();
let pages = 0;
let seconds = 0;
for (const source of sources) {
  const existing = values["data-dir"] ? await server.services.catalog.findByName(source.name) : null;
  if (existing) {
    ids.set(source.slug, existing.id);
    continue;
  }
  const dir = documentationDir(source, values.cache!);
  const result = await ingestDocuments(server.services, {
    name: source.name,
    baseUrl: source.base_url,
    description: source.description,
    origin: dir,
    documents: listDocuments(dir),
  });
  ids.set(source.slug, result.source.id);
  pages += result.pages;
  seconds += result.seconds;
  process.stderr.write(`eval: ${source.slug}: ${result.pages} pages, ${result.chunks} chunks, ${result.seconds.toFixed(1)} s\n`);
}
const sourceOf = (url: string) => sources.find((s) => url.startsWith(s.base_url))?.slug ?? null;

async function ask(question: string, sourceIds?: string[]): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: question }], ...(sourceIds && { sources: sourceIds }) }),
  });
  const body = (await response.json()) as { url_references: string[]; choices: Array<{ message: { content: string } }> };
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
  return { refs: body.url_references, ms: performance.now() - started, text: body.choices[0]!.message.content };
}

async function coverage(question: string, sourceIds?: string[]) {
  const result = await server.services.retrieve({ query: question, sourceIds, limit: 30 });
  // Read as the service reads it: what the question sets aside may be left out of coverage.
  const best = rankPages(result, { aside: setAsideTerms(question, result.matches) })[0];
  return `best coverage ${best?.coverage.toFixed(2)} ${best?.url ?? ""}`;
}

// One untimed question first: the tokenizer's tables load on first use.
await ask("warm up");

const answered: AskedQuestion[] = [];
const tallies: Array<{ set: (typeof sets)[number]; tally: ReturnType<typeof createSetTally>; figures: ReturnType<typeof createReferenceFigures> }> = [];
for (const set of sets) {
  const tally = createSetTally(set.name);
  // First reference right and anchor precision (bench/reference-figures.ts).
  const figures = createReferenceFigures(sources, (source) => documentationDir(source, values.cache!));
  for (const q of readQuestions(set.file)) {
    if (q.source === null) {
      if (values.verbose) console.log(`  ${q.id} (off-topic) ${await coverage(q.question)}`);
      tally.offTopic(q, await ask(q.question));
      for (const source of sources) tally.offTopicExplicit(q, source.slug, await ask(q.question, [ids.get(source.slug)!]));
      continue;
    }
    const source = sources.find((s) => s.slug === q.source);
    if (!source) throw new Error(`${q.id}: unknown source ${q.source}`);
    const gold = new Set(q.gold.map((g) => normaliseUrl(new URL(g, source.base_url).toString())));
    const isGold = (url: string) => gold.has(normaliseUrl(url));
    for (const mode of ["explicit", "agent"] as const) {
      const answer = await ask(q.question, mode === "explicit" ? [ids.get(q.source)!] : undefined);
      tally.onTopic(q, mode, answer, { gold, sourceOf });
      figures.record(mode, answer, isGold);
      answered.push({
        set: set.name,
        id: q.id,
        mode,
        question: q.question,
        gold: [...gold],
        refs: answer.refs,
        goldFirst: !!answer.refs[0] && isGold(answer.refs[0]),
        answer: answer.text,
      });
    }
    if (values.verbose) console.log(`  ${q.id} ${await coverage(q.question, [ids.get(q.source)!])}`);
  }
  console.log(`\nset ${set.name}:\n${tally.notes.join("\n")}`);
  tallies.push({ set, tally, figures });
}
await server.close();
if (values.answers) fs.writeFileSync(values.answers, `${answered.map((a) => JSON.stringify(a)).join("\n")}\n`);
if (!values["data-dir"]) fs.rmSync(dataDir, { recursive: true, force: true });

// The baseline runs once the server is closed: it takes the CPU for seconds, which would stall the server's sockets.
const rows: string[] = [];
let falseRefusals = 0;
let asks = 0;
const latency: number[] = [];
for (const { set, tally, figures } of tallies) {
  const baseline = plainBm25(set.file, { sources: values.sources!, cache: values.cache! });
  console.log(`\n${tally.report(baseline).join("\n")}${set.heldOut ? "\n  (held out: for reporting only, never tuned on)" : ""}`);
  if (tally.asks() > 0) console.log(figures.report(values.verbose));
  rows.push(tally.row(baseline));
  falseRefusals += tally.falseRefusals();
  asks += tally.asks();
  latency.push(...tally.latency);
}

const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]?.toFixed(1) ?? "n/a";
console.log(`
docent eval: ${sets.map((s) => s.name).join(", ")}; ${sources.length} sources${pages ? `, ${pages} pages ingested in ${seconds.toFixed(1)} s` : ""}
${TABLE_HEADER}
${rows.join("\n")}
  false refusals of on-topic questions over these sets: ${falseRefusals}/${asks} (${((100 * falseRefusals) / Math.max(1, asks)).toFixed(1)}%, target <= 1%)
  latency per answer median / p95 (ms): ${quantile(latency, 0.5)} / ${quantile(latency, 0.95)}`);
