// npm run bench -- schemas: what the JSON Schema checker costs over many distinct callers' schemas, in this process
// (the schema thread runs the same code): the first schema of a draft (its meta-schema compiled), the slowest
// check after it (the cache of 64 compiled schemas is let go every 64 distinct schemas: nothing there may cost a
// meta-schema's compile again, which counts against a caller's 500 ms), and the heap after thousands of them
// (each compiled schema leaves ~200 KB in its Ajv instance: the instance must go with the cache).
import { createAjvValidator } from "../src/structured/ajv-validator.ts";

const SCHEMAS = Number(process.env.BENCH_SCHEMAS ?? 3200);
const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 1e6;
};

const checker = createAjvValidator();
const schemaOf = (i: number) => ({
  type: "object",
  properties: Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`p${k}`, { type: "string", pattern: `^a${i}x${k}[a-z]{3,9}$` }])),
  required: ["p0"],
});
const startHeap = heapMb();
const times: number[] = [];
for (let i = 0; i < SCHEMAS; i++) {
  const started = performance.now();
  checker.checkSchema(schemaOf(i));
  times.push(performance.now() - started);
}
const rest = times.slice(1).sort((a, b) => a - b);
const at = (q: number) => rest[Math.min(rest.length - 1, Math.floor(q * rest.length))]!.toFixed(1);
console.log(`schema checker: ${SCHEMAS} distinct schemas of 10 patterns each (BENCH_SCHEMAS), Node ${process.version}`);
console.log(`  first (2020-12 meta-schema compiled): ${times[0]!.toFixed(1)} ms`);
console.log(`  then p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${rest.at(-1)!.toFixed(1)} ms`);
console.log(`  heap: +${(heapMb() - startHeap).toFixed(1)} MB after them${gc ? "" : " (without --expose-gc: includes garbage)"}`);
