import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { databaseFile, loadConfig } from "../src/config.ts";
import { migrateDatabase } from "../src/db/migrate-database.ts";
import { createSqliteClient } from "../src/db/prisma-client.ts";
import { createPrismaKeyStore } from "../src/db/prisma-key-store.ts";
import { sharedEvalFile } from "./eval/shared-file.ts";
import { firstTokenDelays } from "./rest/first-token.ts";
import { type Child, nodeFlags, ROOT, startChild } from "./rest/processes.ts";
import { layersPerRequest } from "./rest/profile-layers.ts";
import { summarizeProfile } from "./rest/profile-summary.ts";
import { replicaDataDir } from "./rest/replica-data-dir.ts";

/**
 * npm run bench -- rest [--index demo,x10] [--duration 5] [--compiled] [--cpu-prof]
 *
 * docent answering `provider_a` against a zero-latency fake OpenAI upstream,
 * side by side with a bare relay to the same upstream (bench/rest/relay.mjs),
 * each in its own process; autocannon drives both from this one. JSON and SSE,
 * 1 and 16 connections, with the demo source and with the retrieval bench's ×10
 * replica index. Prints mean latency (1 connection: the run's time over its
 * requests), throughput, docent's overhead and throughput ratio, how long each
 * holds the first upstream token, and RSS. Asserts nothing.
 */
const { values } = parseArgs({
  args: process.argv.slice(3),
  options: {
    index: { type: "string", default: "demo,x10" },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "1,16" },
    probes: { type: "string", default: "200" },
    replicas: { type: "string", default: "10" },
    compiled: { type: "boolean", default: false },
    "cpu-prof": { type: "boolean", default: false },
    sources: { type: "string", default: sharedEvalFile("sources.json") },
    questions: { type: "string", default: sharedEvalFile("dev.jsonl") },
    cache: { type: "string", default: path.resolve(ROOT, ".eval-cache") },
  },
});
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const connectionCounts = values.connections!.split(",").map(Number);
const probes = Number(values.probes);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "docent-bench-rest-"));

const DEMO_QUESTIONS = [
  "How do I add a knowledge source?",
  "How do I revoke an API key?",
  "Which environment variables configure the rate limits?",
  "How do I use PostgreSQL instead of SQLite?",
];
// With the node flags `npm run start:prod` uses (the young generation's size is part of the figure).
const docentCommand = [...nodeFlags(), ...(values.compiled ? ["dist/main.js"] : ["--import", "tsx", "src/main.ts"])];
// `--compiled` measures what the source says now: build dist/ first (a clean clone has none; an old one may be stale).
if (values.compiled) execFileSync(process.execPath, [path.resolve(import.meta.dirname, "../scripts/build.mjs")], { stdio: ["ignore", "ignore", "inherit"] });

const upstream = await startChild(process.execPath, [path.join(import.meta.dirname, "rest/upstream.mjs")], { ready: /listening (\d+)/ });
const relay = await startChild(process.execPath, [path.join(import.meta.dirname, "rest/relay.mjs"), `${upstream.url}/v1`], { ready: /listening (\d+)/ });
console.log(
  `rest bench on ${os.cpus().length} cores, Node ${process.version}: docent (node ${docentCommand.join(" ")}) vs a bare relay (bench/rest/relay.mjs), both to a zero-latency fake OpenAI upstream`,
);
console.log(
  `each figure: ${duration} s of autocannon after ${warmup} s unmeasured; model provider_a; first token over ${probes} sequential streamed requests\n`,
);

type Target = { name: "docent" | "relay"; url: string; headers: Record<string, string>; process: Child };
type Run = { requests: number; rps: number; meanMs: number; errors: number; cpuMs: number; upstreamCpuMs: number };

async function load(target: Target, bodies: string[], connections: number, seconds: number): Promise<Run> {
  const cpuBefore = [target.process.cpuMs(), upstream.cpuMs()];
  const result = await autocannon({
    url: `${target.url}/v1/chat/completions`,
    connections,
    duration: seconds,
    requests: bodies.map((body) => ({
      method: "POST",
      path: "/v1/chat/completions",
      headers: { ...target.headers, "content-type": "application/json" },
      body,
    })),
  });
  const total = result.requests.total;
  // The closed loop's mean latency from its count: autocannon's histogram has 1 ms resolution.
  return {
    requests: total,
    rps: total / (result.duration || seconds),
    meanMs: (connections * (result.duration || seconds) * 1000) / Math.max(1, total),
    errors: result.errors + result.timeouts + result.non2xx,
    // What each request cost the process (all its threads: GC helpers too), and the upstream's share.
    cpuMs: (target.process.cpuMs() - cpuBefore[0]!) / Math.max(1, total),
    upstreamCpuMs: (upstream.cpuMs() - cpuBefore[1]!) / Math.max(1, total),
  };
}

async function keyFor(dataDir: string): Promise<string> {
  const config = loadConfig({ DATA_DIR: dataDir });
  await migrateDatabase(config);
  const prisma = createSqliteClient(databaseFile(config));
  const key = (await createPrismaKeyStore(prisma).create("bench")).key;
  await prisma.$disconnect();
  return key;
}

/** The questions docent answers through the upstream (not its fixed "not covered" reply), as request bodies. */
async function answeredBodies(target: Target, questions: string[], stream: boolean): Promise<string[]> {
  const kept: string[] = [];
  for (const question of questions) {
    const body = { model: "provider_a", messages: [{ role: "user", content: question }] };
    const response = await fetch(`${target.url}/v1/chat/completions`, {
      method: "POST",
      headers: { ...target.headers, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { url_references?: unknown[] };
    if (response.status !== 200) throw new Error(`docent answered ${response.status}: ${JSON.stringify(json)}`);
    if (json.url_references?.length) kept.push(JSON.stringify({ ...body, stream }));
  }
  if (kept.length === 0) throw new Error("docent answered no question from its sources");
  return kept;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const row = (label: string, docent: string, bare: string, delta: string) =>
  console.log(`  ${label.padEnd(36)} ${docent.padStart(18)} ${bare.padStart(18)} ${delta.padStart(16)}`);

async function benchIndex(kind: "demo" | "x10") {
  const dataDir =
    kind === "demo"
      ? fs.mkdtempSync(path.join(scratch, "demo-"))
      : await replicaDataDir({ sourcesFile: values.sources!, cacheDir: values.cache!, replicas: Number(values.replicas) });
  const key = await keyFor(dataDir);
  const profileDir = path.join(scratch, `profile-${kind}`);
  const started = performance.now();
  const docent: Child = await startChild(process.execPath, [...(values["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), ...docentCommand], {
    env: {
      DATA_DIR: dataDir,
      PORT: "0",
      OPENAI_API_KEY: "sk-bench",
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      DOCENT_DEMO: kind === "demo" ? "1" : "0",
      // The limiter runs (its cost is part of the figure) but never refuses: one key sends everything.
      RATE_LIMIT_PER_MINUTE: "1000000",
      // With ×10 replicas every question has ten equal sources; asking the model to choose would double the upstream calls.
      AGENT_SOURCE_CHOICE_TIMEOUT_MS: "0",
    },
    ready: /docent: serving (http:\/\/\S+)\/v1/,
  });
  const startup = (performance.now() - started) / 1000;
  const targets: Target[] = [
    { name: "docent", url: docent.url, headers: { authorization: `Bearer ${key}` }, process: docent },
    { name: "relay", url: relay.url, headers: {}, process: relay },
  ];
  const sources = (await (await fetch(`${docent.url}/v1/sources`, { headers: targets[0]!.headers })).json()) as { data: Array<{ chunks: number }> };
  const questions =
    kind === "demo"
      ? DEMO_QUESTIONS
      : fs
          .readFileSync(values.questions!, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l).question as string);
  const json = await answeredBodies(targets[0]!, questions, false);
  const sse = json.map((b) => JSON.stringify({ ...JSON.parse(b), stream: true }));
  const chunks = sources.data.reduce((n, s) => n + s.chunks, 0);
  console.log(
    `${kind === "demo" ? "demo source" : `×${values.replicas} replica index`}: ${sources.data.length} sources, ${chunks} passages; ${json.length} of ${questions.length} questions answered from them; docent ready in ${fmt(startup, 1)} s`,
  );
  row("", "docent", "bare relay", "docent vs relay");
  const cpuRows: Array<[string, Run, Run]> = [];
  // docent's measured runs, on the clock its CPU profile keeps, and the requests sent in them.
  const measured: Array<[number, number]> = [];
  let measuredRequests = 0;
  const now = () => Number(process.hrtime.bigint() / 1000n);

  for (const [mode, bodies] of [
    ["JSON", json],
    ["SSE", sse],
  ] as const) {
    for (const connections of connectionCounts) {
      const runs: Record<string, Run> = {};
      for (const target of targets) {
        await load(target, bodies, connections, warmup);
        const from = now();
        runs[target.name] = await load(target, bodies, connections, duration);
        if (target.name === "docent") {
          measured.push([from, now()]);
          measuredRequests += runs.docent!.requests;
        }
      }
      const [d, r] = [runs.docent!, runs.relay!];
      const errors = d.errors + r.errors > 0 ? `  (non-2xx/errors: docent ${d.errors}, relay ${r.errors})` : "";
      row(`${mode}, ${connections} conn., mean latency`, `${fmt(d.meanMs)} ms`, `${fmt(r.meanMs)} ms`, `+${fmt(d.meanMs - r.meanMs)} ms`);
      row(`${mode}, ${connections} conn., throughput`, `${fmt(d.rps, 0)} req/s`, `${fmt(r.rps, 0)} req/s`, `× ${fmt(d.rps / r.rps)}${errors}`);
      cpuRows.push([`${mode}, ${connections} conn.`, d, r]);
    }
  }
  const held: Record<string, Awaited<ReturnType<typeof firstTokenDelays>>> = {};
  for (const target of targets) held[target.name] = await firstTokenDelays(target.url, target.headers, sse, probes);
  const [hd, hr] = [held.docent!, held.relay!];
  row(
    "first token held, p50 / p99",
    `${fmt(hd.held.p50)} / ${fmt(hd.held.p99)} ms`,
    `${fmt(hr.held.p50)} / ${fmt(hr.held.p99)} ms`,
    `+${fmt(hd.held.p50 - hr.held.p50)} ms`,
  );
  row(
    "time to first token, p50 / p99",
    `${fmt(hd.ttft.p50)} / ${fmt(hd.ttft.p99)} ms`,
    `${fmt(hr.ttft.p50)} / ${fmt(hr.ttft.p99)} ms`,
    `+${fmt(hd.ttft.p50 - hr.ttft.p50)} ms`,
  );
  // CPU per request explains the throughput ratio: on a machine the load generator and upstream share,
  // a closed loop at 16 connections is bound by it (ratio ≈ relay's CPU / docent's CPU a request).
  for (const [label, d, r] of cpuRows)
    row(
      `${label} CPU per request`,
      `${fmt(d.cpuMs, 3)} ms`,
      `${fmt(r.cpuMs, 3)} ms`,
      `× ${fmt(d.cpuMs / Math.max(r.cpuMs, 0.001), 1)} (upstream ${fmt(d.upstreamCpuMs, 3)} / ${fmt(r.upstreamCpuMs, 3)})`,
    );
  const [rd, rr] = [docent.rss(), relay.rss()];
  row("RSS after the runs (peak)", `${fmt(rd.now, 0)} MB (${fmt(rd.peak, 0)})`, `${fmt(rr.now, 0)} MB (${fmt(rr.peak, 0)})`, "");
  await docent.stop();
  if (values["cpu-prof"]) {
    for (const file of fs.readdirSync(profileDir)) {
      const kept = path.join(ROOT, `.scratch/rest-${kind}-${file}`);
      fs.mkdirSync(path.dirname(kept), { recursive: true });
      fs.copyFileSync(path.join(profileDir, file), kept);
      console.log(`\n  CPU profile of docent (${kept}), self time by function:`);
      console.log(summarizeProfile(kept, 25).replace(/^/gm, "    "));
      // The main thread's profile (thread 0 in its name: CPU.<date>.<time>.<pid>.<thread>.<n>); workers serve no request.
      if (/\.\d+\.0\.\d+\.cpuprofile$/.test(file)) console.log(`\n  ${layersPerRequest(kept, measured, measuredRequests).replace(/\n/g, "\n    ")}`);
    }
  }
  console.log("");
}

try {
  for (const kind of values.index!.split(",") as Array<"demo" | "x10">) {
    if (kind === "x10" && !fs.existsSync(values.sources!)) {
      console.log(`×10 index skipped: no eval sources at ${values.sources} (give --sources, or --index demo)`);
      continue;
    }
    await benchIndex(kind);
  }
} finally {
  await relay.stop();
  await upstream.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}
