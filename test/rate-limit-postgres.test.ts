import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { DocentError } from "../src/core/errors.ts";
import { rateLimiterContract } from "../src/core/rate-limiter.contract.ts";
import { createRateLimiter } from "../src/rate-limit/create-rate-limiter.ts";
import { createPostgresRateLimiter } from "../src/rate-limit/postgres-rate-limiter.ts";
import { startPostgres, type TestPostgres } from "./support/postgres.ts";

const postgres = await startPostgres();
const skipped = postgres ? "" : " (skipped: PostgreSQL server binaries not installed)";

/** The PostgreSQL limiter: the port's contract, then what only a shared store gives. */
describe.skipIf(!postgres)(`rate limits in PostgreSQL${skipped}`, () => {
  afterAll(() => (postgres as TestPostgres).stop());

  rateLimiterContract("PostgreSQL", async (limits, options) => {
    const limiter = await createPostgresRateLimiter(postgres!.url, limits, options);
    return { limiter, cleanup: () => limiter.close() };
  });

  it("gives two instances on one database one budget per key", async () => {
    const config = { DATABASE_URL: postgres!.url, RATE_LIMIT_PER_MINUTE: 4, MAX_CONCURRENT_PER_KEY: 2 };
    const [one, two] = [await createRateLimiter(config), await createRateLimiter(config)];
    const key = `key-${randomUUID()}`;
    try {
      const held = await one.acquire(key);
      await two.acquire(key);
      await expect(one.acquire(key)).rejects.toThrow(/2 requests in progress/);
      // A slot released through one instance is free for the other.
      await held.release();
      await (await two.acquire(key)).release();
      // Three requests so far, between them; the fourth is the minute's last.
      await (await one.acquire(key)).release();
      const refused = await two.acquire(key).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DocentError);
      expect((refused as DocentError).message).toMatch(/4 requests per minute/);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it("lets instances that start together make the table once (no 'already exists' from the race)", async () => {
    // Instances behind one load balancer start at the same moment; each one's CREATE TABLE IF NOT EXISTS can race the other's.
    for (let round = 0; round < 5; round++) {
      const tableName = `race_${round}_${randomUUID().slice(0, 8)}`;
      const started = await Promise.allSettled(
        Array.from({ length: 4 }, () => createPostgresRateLimiter(postgres!.url, { perMinute: 5, concurrent: 2 }, { tableName })),
      );
      await Promise.all(started.map((s) => (s.status === "fulfilled" ? s.value.close() : undefined)));
      expect(started.map((s) => (s.status === "rejected" ? String(s.reason) : "ok"))).toEqual(["ok", "ok", "ok", "ok"]);
    }
  });

  it("makes its own table in the database", async () => {
    const limiter = await createRateLimiter({ DATABASE_URL: postgres!.url, RATE_LIMIT_PER_MINUTE: 1, MAX_CONCURRENT_PER_KEY: 0 });
    await limiter.acquire("table-check");
    await limiter.close();
    const client = new pg.Client({ connectionString: postgres!.url });
    await client.connect();
    const { rows } = await client.query("SELECT key, points FROM rate_limit_counters WHERE key = 'minute:table-check'");
    await client.end();
    expect(rows).toEqual([{ key: "minute:table-check", points: 1 }]);
  });
});
