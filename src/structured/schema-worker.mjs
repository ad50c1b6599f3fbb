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
// The first schema of each draft compiles its meta-schema's validator (~100 ms of CPU, more on a busy machine):
// done before "ready", off the job's time limit, so a caller's first schema is not refused as too costly.
const drafts = [
  undefined,
  "https://json-schema.org/draft/2019-09/schema",
  "http://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-06/schema#",
];
for (const $schema of drafts) {
  const schema = { ...($schema && { $schema }), type: "object", properties: { a: { type: "string", pattern: "^a" } }, required: ["a"] };
  checks.checkSchema(schema);
  checks.validate(schema, { a: "a" });
}
parentPort.on("message", (job) => {
  try {
    parentPort.postMessage({ result: job.kind === "check" ? checks.checkSchema(job.schema) : checks.validate(job.schema, job.value) });
  } catch {
    parentPort.postMessage({ failed: true });
  }
});
parentPort.postMessage("ready");
