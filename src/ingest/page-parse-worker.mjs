// The page parser's thread (see page-parser.ts): runs one parse job at a time
// and answers it, so a page slow to parse holds this thread, not the server's.
// Plain JavaScript, so it starts the same under tsx, vitest and the compiled
// dist/: the TypeScript sources are loaded through tsx where they are not compiled.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { parentPort } from "node:worker_threads";

const compiled = new URL("./parse-jobs.js", import.meta.url);
const { runParseJob } = fs.existsSync(fileURLToPath(compiled))
  ? await import(compiled.href)
  : await (await import("tsx/esm/api")).tsImport("./parse-jobs.ts", import.meta.url);

parentPort.on("message", (job) => {
  try {
    parentPort.postMessage({ result: runParseJob(job) });
  } catch {
    // A page no parser can read (e.g. HTML nested past the limit): the caller leaves it out.
    parentPort.postMessage({ failed: true });
  }
});
parentPort.postMessage("ready");
