// Finds or builds one source's HNSW graph off the main thread: hashing the vectors
// names the file, and adding 10k points takes seconds of synchronous native work.
// A graph is written through a temporary name (removed if writing fails), so a
// reader sees no file or the whole one. Plain JavaScript: it runs the same under
// tsx, vitest and the compiled dist/.
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parentPort } from "node:worker_threads";

const { HierarchicalNSW } = createRequire(import.meta.url)("hnswlib-node");

/** Named by the ids and vectors it holds: a graph is never read for vectors it was not built from. */
function fingerprint(ids, dims, vectors) {
  const hash = crypto.createHash("sha256");
  hash.update(`${dims}:${ids.join(",")}:`);
  hash.update(new Uint8Array(vectors.buffer, vectors.byteOffset, ids.length * dims * 4));
  return hash.digest("hex").slice(0, 20);
}

parentPort.on("message", ({ job, ids, dims, vectors, dir, prefix, m, efConstruction }) => {
  let temporary = null;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${prefix}${fingerprint(ids, dims, vectors)}.hnsw`);
    if (fs.existsSync(file)) return parentPort.postMessage({ job, ok: true, file, built: false });
    const graph = new HierarchicalNSW("ip", dims);
    graph.initIndex({ maxElements: ids.length, m, efConstruction, randomSeed: 100 });
    for (let i = 0; i < ids.length; i++) graph.addPoint(Array.from(vectors.subarray(i * dims, (i + 1) * dims)), ids[i]);
    temporary = `${file}.${process.pid}.${job}.tmp`;
    graph.writeIndexSync(temporary);
    fs.renameSync(temporary, file);
    parentPort.postMessage({ job, ok: true, file, built: true });
  } catch (error) {
    if (temporary) fs.rmSync(temporary, { force: true });
    parentPort.postMessage({ job, ok: false, message: String(error?.message ?? error) });
  }
});
