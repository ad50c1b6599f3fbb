// Builds one source's HNSW graph off the main thread (adding 10k points takes seconds
// of synchronous native work) and writes it to `file` through a temporary name, so a
// reader sees the old file, no file, or the whole new one. Plain JavaScript: it runs
// the same under tsx, vitest and the compiled dist/.
import fs from "node:fs";
import { createRequire } from "node:module";
import { parentPort } from "node:worker_threads";

const { HierarchicalNSW } = createRequire(import.meta.url)("hnswlib-node");

parentPort.on("message", ({ job, ids, dims, vectors, file, m, efConstruction }) => {
  try {
    const graph = new HierarchicalNSW("ip", dims);
    graph.initIndex({ maxElements: ids.length, m, efConstruction, randomSeed: 100 });
    for (let i = 0; i < ids.length; i++) graph.addPoint(Array.from(vectors.subarray(i * dims, (i + 1) * dims)), ids[i]);
    const temporary = `${file}.${process.pid}.${job}.tmp`;
    graph.writeIndexSync(temporary);
    fs.renameSync(temporary, file);
    parentPort.postMessage({ job, ok: true });
  } catch (error) {
    parentPort.postMessage({ job, ok: false, message: String(error?.message ?? error) });
  }
});
