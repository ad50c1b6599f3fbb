import type { SchemaValidator } from "../core/structured-output.ts";
import { createLimitedThread } from "../workers/limited-thread.ts";

/** Time one schema check or one reply's validation may take: a 16 KB schema of ordinary patterns compiles in 25–60 ms. */
export const SCHEMA_TIME_LIMIT_MS = 500;
const MEMORY_LIMIT_MB = 256;

type SchemaJob = { kind: "check"; schema: Record<string, unknown> } | { kind: "validate"; schema: Record<string, unknown>; value: unknown };

/**
 * The SchemaValidator port on a thread of its own (workers/limited-thread.ts)
 * running the Ajv adapter. A caller's schema is compiled to code, and the
 * regular-expression engine's compile time has cases no size bound catches
 * (`(?i)` with `\pL` 300 times: about 80 ms a pattern, 1 s a schema, 12 s a
 * tRPC batch, all on the server's thread): here such a schema holds only this
 * thread, and one over SCHEMA_TIME_LIMIT_MS is refused and its thread ended.
 */
export function createThreadedSchemaValidator({ timeLimitMs = SCHEMA_TIME_LIMIT_MS } = {}): SchemaValidator & { warm(): void; close(): Promise<void> } {
  const thread = createLimitedThread<SchemaJob>({
    script: new URL("./schema-worker.mjs", import.meta.url),
    timeLimitMs,
    memoryLimitMb: MEMORY_LIMIT_MB,
    name: "JSON Schema checker",
  });
  return {
    async checkSchema(schema, { caller, signal } = {}) {
      const outcome = await thread.run({ kind: "check", schema }, { owner: caller, signal });
      if ("result" in outcome) return outcome.result as string | null;
      return "overLimit" in outcome
        ? `checking it took longer than ${timeLimitMs} ms: its patterns or subschemas are too costly to compile`
        : "it could not be checked";
    },
    async validate(schema, value, { caller, signal } = {}) {
      const outcome = await thread.run({ kind: "validate", schema, value }, { owner: caller, signal });
      if ("result" in outcome) return outcome.result as string[];
      return [
        "overLimit" in outcome
          ? `the reply could not be checked against the schema within ${timeLimitMs} ms`
          : "the reply could not be checked against the schema",
      ];
    },
    warm: () => thread.warm(),
    close: () => thread.close(),
  };
}
