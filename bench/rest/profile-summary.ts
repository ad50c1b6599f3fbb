import fs from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, a file of ours, Node's internals, or V8's own bucket. */
function placeOf(url: string, functionName: string): string {
  if (!url) return `(${functionName.replace(/[()]/g, "") || "native"})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith("node:internal/deps/")) return url.split("/").slice(0, 3).join("/");
  if (url.startsWith("node:")) return url.split("/").slice(0, 2).join("/");
  const ours = /\/(src|dist|bench)\/(.*)$/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : path.basename(url);
}

/**
 * A `node --cpu-prof` profile as text: self time by function and by place
 * (package, source file, GC, idle), as shares of the busy (non-idle) time.
 */
export function summarizeProfile(file: string, top = 20): string {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, micros] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === "(idle)") {
      idle += micros;
      continue;
    }
    busy += micros;
    const place = placeOf(url, functionName);
    const name = `${functionName || "(anonymous)"} ${url ? `${place}:${lineNumber + 1}` : ""}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
  }
  // Inclusive time of our own functions (self plus everything they called), counted once per sample.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      if (!/\/(src|dist)\//.test(url)) continue;
      const name = `${functionName || "(anonymous)"} ${placeOf(url, functionName)}:${lineNumber + 1}`;
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
  });
  const list = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`)
      .join("\n");
  return [
    `busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s`,
    `by place:`,
    list(byPlace, 15),
    `by function (self):`,
    list(byFunction, top),
    `our functions, inclusive (self + callees):`,
    list(inclusive, top),
  ].join("\n");
}

// npx tsx bench/rest/profile-summary.ts FILE.cpuprofile [TOP]
if (process.argv[1] === import.meta.filename) console.log(summarizeProfile(process.argv[2]!, Number(process.argv[3] ?? 30)));
