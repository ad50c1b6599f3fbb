import { randomUUID } from "node:crypto";
import type { RateLimiter } from "../src/core/rate-limiter.ts";
import { createMemoryRateLimiter } from "../src/rate-limit/memory-rate-limiter.ts";
import { createPostgresRateLimiter } from "../src/rate-limit/postgres-rate-limiter.ts";
import { startPostgres } from "../test/support/postgres.ts";

/**
 * The cost of one acquire + release (both limits on, far from them): in
 * memory and in a throw-away local PostgreSQL, one caller after another and
 * 8 at once. Prints figures; asserts nothing.
 */
const N = Number(process.env.BENCH_REQUESTS ?? 2000);
const limits = { perMinute: 1_000_000, concurrent: 1_000 };

async function measure(label: string, limiter: RateLimiter, parallel: number) {
  const key = `bench-${randomUUID()}`;
  const times: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = 0; i < N / parallel; i++) {
        const t = performance.now();
        await (await limiter.acquire(key)).release();
        times.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(3);
  console.log(`${label.padEnd(28)} n=${times.length}  p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  ${(times.length / seconds).toFixed(0)}/s`);
}

const memory = createMemoryRateLimiter(limits);
await measure("memory, 1 at a time", memory, 1);
await measure("memory, 8 at once", memory, 8);
const postgres = await startPostgres();
if (!postgres) console.log("PostgreSQL: skipped (server binaries not installed)");
else {
  const limiter = await createPostgresRateLimiter(postgres.url, limits);
  try {
    await measure("PostgreSQL, 1 at a time", limiter, 1);
    await measure("PostgreSQL, 8 at once", limiter, 8);
  } finally {
    await limiter.close();
    postgres.stop();
  }
}
