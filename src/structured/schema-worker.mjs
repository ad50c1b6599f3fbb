// The schema thread (see threaded-validator.ts): checks callers' JSON Schemas
// and validates replies against them, one job at a time, so a schema that is
// slow to compile holds this thread, not the server's. Plain JavaScript, so it
// starts the same under tsx, vitest and the compiled dist/.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { parentPort } from "node:worker_threads";

const compiled = new URL("./ajv-validator.js", import.meta.url);
const { createAjvValidator } = fs.existsSync(fileURLToPath(compiled))
  ? await import(compiled.href)
  : await (await import("tsx/esm/api")).tsImport("./ajv-validator.ts", import.meta.url);

const checks = createAjvValidator();
parentPort.on("message", (job) => {
  try {
    parentPort.postMessage({ result: job.kind === "check" ? checks.checkSchema(job.schema) : checks.validate(job.schema, job.value) });
  } catch {
    parentPort.postMessage({ failed: true });
  }
});
parentPort.postMessage("ready");
