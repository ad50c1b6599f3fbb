import fs from "node:fs";

interface Frame {
  functionName: string;
  url: string;
}
interface Profile {
  nodes: Array<{ id: number; callFrame: Frame; children?: number[] }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The layers a request's CPU time is spent in, by the code a sample runs.
 * Native frames (JSON.stringify, a socket's writev) and the socket and stream
 * code both sides share count for the nearest caller of a known layer, so a
 * prompt's serialisation and write are the provider call's and a response's
 * write is the HTTP server's. Works on `dist/` (compiled) and `src/` (tsx).
 */
/** docent's own files in these folders of `dist/` or `src/` (not a package's own `dist/`). */
const ours = (folders: string) => `^(?!.*node_modules).*/(dist|src)/(${folders})`;
const LAYERS: Array<[string, RegExp]> = [
  ["logs, metrics, usage records (pino, prom-client, Prisma)", new RegExp(`pino|sonic-boom|prom-client|prisma|${ours("logging|metrics|db")}/`)],
  ["answering: sources, retrieval, ranking, grounding, prompt, citations", new RegExp(`${ours("core|retrieval|text")}/|node_modules/better-sqlite3/`)],
  ["provider call: request out, events in (node:http client)", new RegExp(`${ours("providers")}/|node:_http_client|node:_http_agent|p-retry`)],
  [
    "HTTP server: parsing, Hono and its Node adapter, auth, body, SSE/JSON out",
    new RegExp(`${ours("http|auth|app")}|hono|node:_http_server|webstreams|undici`),
  ],
];
/** Sockets, streams and HTTP framing both sides share: a sample in them counts for whoever called them (a write of the prompt is the provider call's). */
const SHARED = /node:net|stream_base|node:internal\/streams|node:_http_(outgoing|common|incoming)/;

function layerOf(frames: Frame[]): string {
  if (frames[0]?.functionName === "(garbage collector)") return "garbage collection";
  for (const frame of frames) {
    if (!frame.url || SHARED.test(frame.url)) continue;
    for (const [name, pattern] of LAYERS) if (pattern.test(frame.url)) return name;
  }
  return "other (event loop, promises, timers, Node internals)";
}

/**
 * CPU per request by layer, from a `node --cpu-prof` profile: only samples
 * taken inside `windows` (monotonic µs, the clock the profile and
 * `process.hrtime` share) count, divided by the requests sent in them, so
 * start-up and the relay's turns are left out.
 */
export function layersPerRequest(file: string, windows: Array<[number, number]>, requests: number): string {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const layers = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (!windows.some(([from, to]) => at >= from && at <= to)) return;
    const leaf = byId.get(id)!.callFrame;
    if (leaf.functionName === "(idle)") return;
    const frames: Frame[] = [];
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) frames.push(byId.get(node)!.callFrame);
    const layer = layerOf(frames);
    layers.set(layer, (layers.get(layer) ?? 0) + delta);
    busy += delta;
  });
  const perRequest = (micros: number) => `${(micros / Math.max(1, requests) / 1000).toFixed(3)} ms`;
  return [
    `CPU per request in the measured runs (${requests} requests, main thread): ${perRequest(busy)}`,
    ...[...layers]
      .sort((a, b) => b[1] - a[1])
      .map(([name, micros]) => `${perRequest(micros).padStart(10)}  ${((100 * micros) / busy).toFixed(0).padStart(3)}%  ${name}`),
  ].join("\n");
}
