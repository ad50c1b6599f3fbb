import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { Worker } from "node:worker_threads";
import { loadConfig } from "../src/config.ts";
import { type FuzzContext, type FuzzRequest, MAKERS, type Maker, makeRng } from "./fuzz-bodies.ts";
import { nodeFlags } from "./rest/processes.ts";

/**
 * `npm run bench -- fuzz [--worst]`: hostile bodies against the real server
 * (its own process, 127.0.0.1 only) over 8 connections while another thread
 * polls /healthz. Prints the figures and exits 1 when a goal is missed:
 * no 5xx, every 4xx in OpenAI's error shape, none unanswered within 10 s,
 * /healthz p99 under 100 ms. `--worst` sends only the costliest kinds and
 * reports the /healthz figures (its goal is the same p99).
 */
const worstOnly = process.argv.includes("--worst");
const TOTAL = Number(process.env.BENCH_FUZZ_REQUESTS ?? (worstOnly ? 400 : 10_000));
const SECONDS = Number(process.env.BENCH_FUZZ_SECONDS ?? 900);
const CONNECTIONS = Number(process.env.BENCH_FUZZ_CONNECTIONS ?? 8);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? 12);
const UNANSWERED_MS = 10_000;
const HEALTHZ_GOAL_MS = 100;

// Limits as the server reads them (defaults; the variables exist from the input-limits change on).
const config = loadConfig({}) as Record<string, unknown>;
const limits: FuzzContext["limits"] = {
  messageChars: Number(config.MAX_MESSAGE_CHARS ?? 100_000),
  inputChars: Number(config.MAX_INPUT_CHARS ?? 400_000),
  messages: Number(config.MAX_MESSAGES ?? 1000),
  bodyBytes: Number(config.MAX_BODY_BYTES),
};

const child = spawn(
  process.execPath,
  // The node flags `npm run start:prod` uses, then any of the caller's.
  [...nodeFlags(), ...(process.env.BENCH_FUZZ_SERVER_ARGS?.split(" ") ?? []), "--import", "tsx", path.join(import.meta.dirname, "fuzz-server.ts")],
  { stdio: ["pipe", "pipe", "inherit"] },
);
const lines = readline.createInterface({ input: child.stdout! });
const nextLine = () =>
  new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before it said what it had to`)));
  });
const first = await nextLine();
let serverDied: string | null = null;
let stopping = false;
child.once("exit", (code, signal) => {
  if (!stopping) serverDied = `the server process exited (${signal ?? code}) during the run`;
});
const server = JSON.parse(first) as { url: string; key: string; sources: Record<string, string> };
const ctx: FuzzContext = { sources: Object.values(server.sources), limits };
if (!server.url.startsWith("http://127.0.0.1:")) throw new Error(`refusing to fuzz ${server.url}: 127.0.0.1 only`);

// One ordinary question and one structured one first, unmeasured: a server's first question loads
// the tokenizer's tables and the word list (~0.4 s, once per process), and the figures are about load.
for (const body of [
  { model: "agent", messages: [{ role: "user", content: "What does VACUUM do?" }] },
  {
    model: "agent",
    messages: [{ role: "user", content: "What does VACUUM do?" }],
    response_format: { type: "json_schema", json_schema: { name: "w", schema: { type: "object" } } },
  },
]) {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await response.text();
}

// /healthz from another thread, so the load generator's own work does not skew its times.
const poller = new Worker(
  `const { parentPort, workerData } = require("node:worker_threads");
   const times = []; let failures = 0; let stop = false;
   parentPort.on("message", () => { stop = true; });
   (async () => {
     while (!stop) {
       const started = performance.now();
       try {
         const r = await fetch(workerData.url + "/healthz", { signal: AbortSignal.timeout(${UNANSWERED_MS}) });
         await r.text();
         if (r.status !== 200) failures++;
       } catch { failures++; }
       times.push(performance.now() - started);
       await new Promise((r) => setTimeout(r, 20));
     }
     parentPort.postMessage({ times, failures });
   })();`,
  { eval: true, workerData: { url: server.url } },
);

// The load generator yields the CPU to the server and the poller (both started above, at normal
// priority): hostile clients run on other machines, not on the server's cores. On Linux this
// lowers only the calling thread.
try {
  os.setPriority(10);
} catch {}

const makers: Maker[] = worstOnly ? MAKERS.filter((m) => m.worst) : MAKERS;
const totalWeight = makers.reduce((s, m) => s + m.weight, 0);
const rng = makeRng(SEED);
const chooseMaker = () => {
  let r = rng.next() * totalWeight;
  for (const m of makers) if ((r -= m.weight) < 0) return m;
  return makers.at(-1)!;
};

const byStatus = new Map<string, number>();
const byKind = new Map<string, { n: number; statuses: Map<string, number>; slowest: number }>();
const problems: string[] = [];
let sent = 0;
let answered = 0;
let fiveHundreds = 0;
let badShape = 0;
let unanswered = 0;
const deadline = Date.now() + SECONDS * 1000;

const isOpenAIError = (body: unknown) => {
  const e = (body as { error?: Record<string, unknown> } | null)?.error;
  return (
    !!e &&
    typeof e.message === "string" &&
    typeof e.type === "string" &&
    "param" in e &&
    (e.param === null || typeof e.param === "string") &&
    "code" in e &&
    (e.code === null || typeof e.code === "string")
  );
};

async function send(maker: Maker, request: FuzzRequest) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...(request.auth === false ? {} : { authorization: `Bearer ${server.key}` }),
    ...request.headers,
  };
  const started = performance.now();
  let status = "no answer";
  try {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers,
      body: request.body,
      signal: AbortSignal.timeout(UNANSWERED_MS),
    });
    const text = await response.text();
    status = String(response.status);
    if (response.status >= 500) {
      fiveHundreds++;
      if (problems.length < 20) problems.push(`${maker.name}: HTTP ${response.status} ${text.slice(0, 200)}`);
    } else if (response.status >= 400) {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {}
      if (!isOpenAIError(parsed)) {
        badShape++;
        if (problems.length < 20) problems.push(`${maker.name}: HTTP ${response.status} not in OpenAI's shape: ${text.slice(0, 200)}`);
      }
    }
  } catch (error) {
    const name = (error as Error).name;
    if (name === "TimeoutError" || name === "AbortError") unanswered++;
    else {
      status = `failed (${(error as Error).message})`;
      if (problems.length < 20) problems.push(`${maker.name}: ${(error as Error).message} ${String((error as Error & { cause?: unknown }).cause ?? "")}`);
    }
  }
  const elapsed = performance.now() - started;
  if (status === "no answer" && problems.length < 20) problems.push(`${maker.name}: no answer within ${UNANSWERED_MS / 1000} s`);
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  const kind = byKind.get(maker.name) ?? { n: 0, statuses: new Map(), slowest: 0 };
  kind.n++;
  kind.statuses.set(status, (kind.statuses.get(status) ?? 0) + 1);
  kind.slowest = Math.max(kind.slowest, elapsed);
  byKind.set(maker.name, kind);
}

const started = Date.now();
async function connection() {
  while (sent < TOTAL && Date.now() < deadline) {
    sent++;
    const maker = chooseMaker();
    await send(maker, maker.make(rng, ctx));
    if (++answered % 1000 === 0) console.error(`… ${answered} done, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}
await Promise.all(Array.from({ length: CONNECTIONS }, connection));
const seconds = (Date.now() - started) / 1000;

poller.postMessage("stop");
const health = await new Promise<{ times: number[]; failures: number }>((resolve) => poller.once("message", resolve));
await poller.terminate();
// A server still busy with work the bench gave up on is stopped after 10 s (its loop delays are then unknown).
const loopDelay = Promise.race([nextLine(), new Promise<string>((resolve) => setTimeout(() => resolve('{"p50":NaN,"p99":NaN,"max":NaN}'), 10_000))]);
stopping = true;
child.stdin!.end();
const serverLoop = JSON.parse((await loopDelay).replaceAll("NaN", "null")) as { p50: number | null; p99: number | null; max: number | null };
if (child.exitCode === null && child.signalCode === null) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  child.kill("SIGKILL");
}

const times = [...health.times].sort((a, b) => a - b);
const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? NaN;
const total = [...byStatus.values()].reduce((s, n) => s + n, 0);
const ms = (v: number | null) => (v == null || Number.isNaN(v) ? "unknown" : `${v.toFixed(1)} ms`);

console.log(
  `fuzz${worstOnly ? " --worst" : ""}: ${total} requests in ${seconds.toFixed(0)} s over ${CONNECTIONS} connections (seed ${SEED}; limits ${JSON.stringify(limits)})`,
);
console.log(
  `by status: ${[...byStatus.entries()]
    .sort()
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ")}`,
);
console.log(`5xx: ${fiveHundreds}   4xx not in OpenAI's shape: ${badShape}   unanswered within ${UNANSWERED_MS / 1000} s: ${unanswered}`);
console.log(`/healthz (${times.length} polls, ${health.failures} failed): p50 ${ms(at(0.5))}  p99 ${ms(at(0.99))}  max ${ms(times.at(-1) ?? NaN)}`);
console.log(
  `server event-loop delay (its own measure): p50 ${ms(serverLoop.p50)}  p99 ${ms(serverLoop.p99)}  max ${ms(serverLoop.max)}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} on ${os.cpus().length} cores`,
);
if (serverDied) console.log(`!! ${serverDied}`);
console.log("by kind:");
for (const [name, k] of [...byKind.entries()].sort()) {
  console.log(
    `  ${name.padEnd(30)} ${String(k.n).padStart(5)}  slowest ${(k.slowest / 1000).toFixed(2)} s  ${[...k.statuses.entries()].map(([s, n]) => `${s}×${n}`).join(" ")}`,
  );
}
for (const p of problems) console.log(`  ! ${p}`);

const missed = [
  total < TOTAL && `only ${total} of ${TOTAL} requests within ${SECONDS} s`,
  fiveHundreds > 0 && `${fiveHundreds} 5xx`,
  badShape > 0 && `${badShape} 4xx not in OpenAI's shape`,
  unanswered > 0 && `${unanswered} unanswered within ${UNANSWERED_MS / 1000} s`,
  !(at(0.99) < HEALTHZ_GOAL_MS) && `/healthz p99 ${ms(at(0.99))} ≥ ${HEALTHZ_GOAL_MS} ms`,
  health.failures > 0 && `${health.failures} /healthz polls failed`,
  serverDied,
].filter(Boolean);
console.log(missed.length === 0 ? "all goals met" : `goals missed: ${missed.join("; ")}`);
process.exit(missed.length === 0 ? 0 : 1);
