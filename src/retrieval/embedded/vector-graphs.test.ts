import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteIndex } from "./sqlite-index.ts";

const ID = "11111111-2222-4333-8444-555555555555";
const DIMS = 16;
const opened: Array<ReturnType<typeof openSqliteIndex>> = [];
const folders: string[] = [];
afterEach(() => {
  for (const index of opened.splice(0)) index.close();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** Deterministic unit vectors in clusters, like embeddings of passages on a few topics. */
function vectors(count: number, seed: number): Float32Array[] {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const centres = Array.from({ length: 8 }, () => Array.from({ length: DIMS }, random));
  return Array.from({ length: count }, (_, i) => {
    const v = Float32Array.from(centres[i % 8]!, (c) => c + random() * 0.6);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

const pages = (embeddings: Float32Array[], tag: string) =>
  embeddings.map((embedding, i) => ({
    url: `https://x/${tag}${i}.html`,
    hash: `${tag}${i}`,
    chunks: [{ sourceId: ID, url: `https://x/${tag}${i}.html`, anchor: "", title: `${tag} ${i}`, section: "", text: `${tag} passage ${i}`, embedding }],
  }));

function open(file: string) {
  // 500 vectors × 16 floats is over this bar: the source gets a graph.
  const index = openSqliteIndex(file, { graphMinFloats: 1_000 });
  opened.push(index);
  return index;
}

async function until(ready: () => boolean) {
  for (let waited = 0; !ready(); waited += 20) {
    if (waited > 20_000) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const exactBest = (stored: Float32Array[], query: Float32Array, k: number) =>
  stored
    .map((v, i) => ({ i, score: v.reduce((sum, x, d) => sum + x * query[d]!, 0) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map(({ i }) => i);

describe("HNSW graphs for large sources' vectors", () => {
  const file = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "docent-graphs-"));
    folders.push(folder);
    return path.join(folder, "index.db");
  };

  it("searches a large source through a graph built off the request path, finding what an exact scan finds", async () => {
    const index = open(file());
    const stored = vectors(500, 7);
    await index.writer.replaceSource(ID, pages(stored, "a"));
    // The first search scans exactly while the graph is built in a worker.
    const first = await index.vectorSearch(stored[3]!, [ID], 5);
    expect(first[0]!.url).toBe("https://x/a3.html");
    await until(() => index.stats().graphs === 1);
    let found = 0;
    for (const q of [3, 77, 150, 222, 499]) {
      const query = vectors(500, 7)[q]!.map((x, d) => x + (d % 3) * 0.05);
      const hits = await index.vectorSearch(query, [ID], 5);
      const exact = exactBest(stored, query, 5).map((i) => `https://x/a${i}.html`);
      expect(hits[0]!.url).toBe(exact[0]);
      const best = stored[Number(/(\d+)\.html$/.exec(exact[0]!)![1])]!;
      expect(hits[0]!.score).toBeCloseTo(
        best.reduce((sum, x, d) => sum + x * query[d]!, 0),
        4,
      );
      found += hits.filter((h) => exact.includes(h.url)).length;
    }
    expect(found / 25).toBeGreaterThanOrEqual(0.9);
  });

  it("lets a second process read the graph another built, and never uses a graph for vectors it was not built from", async () => {
    const shared = file();
    const writer = open(shared);
    const first = vectors(500, 7);
    await writer.writer.replaceSource(ID, pages(first, "a"));
    await writer.vectorSearch(first[0]!, [ID], 1);
    await until(() => writer.stats().graphs === 1);
    const graphFiles = () => fs.readdirSync(`${shared}-graphs`).filter((name) => name.endsWith(".hnsw"));
    const [built] = graphFiles();
    const builtAt = fs.statSync(`${shared}-graphs/${built}`).mtimeMs;

    const reader = open(shared);
    await reader.vectorSearch(first[0]!, [ID], 1);
    await until(() => reader.stats().graphs === 1);
    expect(fs.statSync(`${shared}-graphs/${built}`).mtimeMs).toBe(builtAt);

    // New vectors under the same source (and, SQLite reusing them, the same row ids): the old graph is out at once.
    const second = vectors(500, 99);
    await writer.writer.replaceSource(ID, pages(second, "b"));
    expect(writer.stats().graphs).toBe(0);
    const hits = await writer.vectorSearch(second[10]!, [ID], 3);
    expect(hits[0]!.url).toBe("https://x/b10.html");
    expect(hits[0]!.score).toBeCloseTo(1, 4);
    await until(() => writer.stats().graphs === 1);
    expect(graphFiles()).toHaveLength(1);
    expect(graphFiles()[0]).not.toBe(built);
    expect((await writer.vectorSearch(second[10]!, [ID], 3))[0]!.url).toBe("https://x/b10.html");

    await writer.writer.removeSource(ID);
    await writer.vectorSearch(second[10]!, undefined, 3);
    expect(graphFiles()).toEqual([]);
  });

  it("builds off the main thread: the event loop keeps turning while a graph of 6,000 vectors is built", async () => {
    const index = open(file());
    const stored = vectors(6_000, 3);
    await index.writer.replaceSource(ID, pages(stored, "a"));
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    await index.vectorSearch(stored[0]!, [ID], 1);
    await until(() => index.stats().graphs === 1);
    clearInterval(ticker);
    // Building took far longer than the longest pause (a build on the main thread is one pause of its whole length).
    expect(performance.now() - started).toBeGreaterThan(4 * longest);
  });

  it("removing a source while its graph is built leaves no graph file behind", async () => {
    const shared = file();
    const index = open(shared);
    const stored = vectors(3_000, 5);
    await index.writer.replaceSource(ID, pages(stored, "a"));
    await index.vectorSearch(stored[0]!, [ID], 1);
    await index.writer.removeSource(ID);
    await index.vectorSearch(stored[0]!, undefined, 1);
    // The build, if it ran, ends with its file removed; none for a source the index no longer has.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const left = fs.existsSync(`${shared}-graphs`) ? fs.readdirSync(`${shared}-graphs`) : [];
    expect(left).toEqual([]);
  });

  it("keeps small sources on the exact scan", async () => {
    const index = openSqliteIndex(file());
    opened.push(index);
    const stored = vectors(500, 7);
    await index.writer.replaceSource(ID, pages(stored, "a"));
    await index.vectorSearch(stored[0]!, [ID], 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(index.stats().graphs).toBe(0);
  });
});
