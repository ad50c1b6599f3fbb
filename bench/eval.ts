import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { rankPages } from "../src/core/rank-pages.ts";
import { startServer } from "../src/server.ts";
import { silentLogger } from "../src/logging/logger.ts";
import { documentationDir, type EvalSource } from "./debian-docs.ts";
import { createReferenceFigures } from "./reference-figures.ts";

/**
 * npm run eval -- --questions FILE --sources FILE
 * Ingests the sources into a scratch data dir, asks every question through
 * the real HTTP API in explicit and agent mode, and prints the figures.
 * Nothing here knows any question: the same settings serve unseen ones.
 */
const { values } = parseArgs({
  options: {
    questions: { type: "string", default: path.resolve(import.meta.dirname, "../../shared/eval/dev.jsonl") },
    sources: { type: "string", default: path.resolve(import.meta.dirname, "../../shared/eval/sources.json") },
    cache: { type: "string", default: path.resolve(import.meta.dirname, "../.eval-cache") },
    verbose: { type: "boolean", default: false },
    /** Keep the index here and reuse sources already in it (for iterating; the default is a scratch dir). */
    "data-dir": { type: "string" },
  },
});

interface Question {
  id: string;
  source: string | null;
  question: string;
  gold: string[];
}

const sources: EvalSource[] = JSON.parse(fs.readFileSync(values.sources!, "utf8"));
const questions: Question[] = fs.readFileSync(values.questions!, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));

/** URLs compare without fragment, trailing slash or `.html`. */
export const normaliseUrl = (url: string) => url.replace(/#.*$/, "").replace(/\/+$/, "").replace(/\.html?$/, "");

const dataDir = values["data-dir"] ? path.resolve(values["data-dir"]) : fs.mkdtempSync(path.join(os.tmpdir(), "docent-eval-"));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(OPENAI|ANTHROPIC|EMBEDDINGS)_/.test(k)));
// Questions go one after another as fast as answers come: no per-minute budget for this one key.
const server = await startServer(loadConfig({ ...env, DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "0", AGENT_MODEL: "extractive", RATE_LIMIT_PER_MINUTE: "0" }), { log: () => {}, logger: silentLogger() });
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
  const result = await ingestDocuments(server.services, { name: source.name, baseUrl: source.base_url, description: source.description, origin: dir, documents: listDocuments(dir) });
  ids.set(source.slug, result.source.id);
  pages += result.pages;
  seconds += result.seconds;
  process.stderr.write(`eval: ${source.slug}: ${result.pages} pages, ${result.chunks} chunks, ${result.seconds.toFixed(1)} s\n`);
}
// First reference right and anchor precision (bench/reference-figures.ts).
const figures = createReferenceFigures(sources, (source) => documentationDir(source, values.cache!));
const sourceOfUrl = (url: string) => sources.find((s) => url.startsWith(s.base_url))?.slug ?? null;

async function ask(question: string, sourceIds?: string[]) {
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

// One untimed question first: the tokenizer's tables load on first use.
await ask("warm up");

const tally = { explicit: 0, agent: 0, onTopic: 0, routed: 0, refsTotal: 0, refsAgent: 0, answers: 0, offTopic: 0, abstained: 0 };
const latency = { explicit: [] as number[], agent: [] as number[] };
for (const q of questions) {
  if (q.source === null) {
    if (values.verbose) {
      const pages = rankPages(await server.services.retrieve({ query: q.question, limit: 30 }));
      console.log(`  ${q.id} (off-topic) best coverage ${pages[0]?.coverage.toFixed(2)} ${pages[0]?.url}`);
    }
    const agent = await ask(q.question);
    latency.agent.push(agent.ms);
    tally.offTopic++;
    if (agent.refs.length === 0) tally.abstained++;
    else console.log(`  off-topic ${q.id} did not abstain: ${agent.refs.join(" ")}`);
    continue;
  }
  const source = sources.find((s) => s.slug === q.source)!;
  const gold = new Set(q.gold.map((g) => normaliseUrl(new URL(g, source.base_url).toString())));
  const explicit = await ask(q.question, [ids.get(q.source)!]);
  const agent = await ask(q.question);
  latency.explicit.push(explicit.ms);
  latency.agent.push(agent.ms);
  const hit = (refs: string[]) => refs.some((r) => gold.has(normaliseUrl(r)));
  figures.record("explicit", explicit, (r) => gold.has(normaliseUrl(r)));
  figures.record("agent", agent, (r) => gold.has(normaliseUrl(r)));
  tally.onTopic++;
  if (hit(explicit.refs)) tally.explicit++;
  if (hit(agent.refs)) tally.agent++;
  const strays = agent.refs.filter((r) => sourceOfUrl(r) !== q.source);
  if (strays.length > 0) console.log(`  ${q.id} agent drew ${strays.length}/${agent.refs.length} references from ${[...new Set(strays.map(sourceOfUrl))].join(", ")}`);
  tally.routed += agent.refs.length - strays.length;
  tally.refsAgent += agent.refs.length;
  tally.refsTotal += explicit.refs.length + agent.refs.length;
  tally.answers += 2;
  if (values.verbose) {
    const pages = rankPages(await server.services.retrieve({ query: q.question, sourceIds: [ids.get(q.source)!], limit: 30 }));
    console.log(`  ${q.id} best coverage ${pages[0]?.coverage.toFixed(2)} score ${pages[0]?.score.toFixed(2)}`);
  }
  if (values.verbose || !hit(explicit.refs) || !hit(agent.refs)) {
    console.log(`  ${q.id} explicit ${hit(explicit.refs) ? "hit " : "MISS"} agent ${hit(agent.refs) ? "hit " : "MISS"}  ${q.question}`);
    if (!hit(explicit.refs)) console.log(`      explicit: ${explicit.refs.join(" ")}`);
    if (!hit(agent.refs)) console.log(`      agent:    ${agent.refs.join(" ")}`);
  }
}

const pct = (a: number, b: number) => (b === 0 ? "n/a" : (a / b).toFixed(3));
const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]?.toFixed(1) ?? "n/a";
console.log(`
docent eval: ${questions.length} questions (${tally.onTopic} on-topic, ${tally.offTopic} off-topic), ${sources.length} sources, ${pages} pages ingested in ${seconds.toFixed(1)} s
  gold page in url_references, explicit : ${pct(tally.explicit, tally.onTopic)}   (target >= 0.95)
  gold page in url_references, agent    : ${pct(tally.agent, tally.onTopic)}   (target >= 0.90)
  agent routing precision               : ${pct(tally.routed, tally.refsAgent)}   (target >= 0.95)
  off-topic questions abstained         : ${tally.abstained}/${tally.offTopic}   (target: all)
  mean references per answer            : ${(tally.refsTotal / Math.max(1, tally.answers)).toFixed(2)}   (target <= 5)
  latency explicit median / p95 (ms)    : ${quantile(latency.explicit, 0.5)} / ${quantile(latency.explicit, 0.95)}
  latency agent    median / p95 (ms)    : ${quantile(latency.agent, 0.5)} / ${quantile(latency.agent, 0.95)}`);
console.log(figures.report(values.verbose));
await server.close();
if (!values["data-dir"]) fs.rmSync(dataDir, { recursive: true, force: true });
