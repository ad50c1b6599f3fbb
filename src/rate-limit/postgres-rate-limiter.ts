import pg from "pg";
import { RateLimiterPostgres } from "rate-limiter-flexible";
import type { RateLimiter, RateLimits } from "../core/rate-limiter.ts";
import { type Counter, DEFAULT_LEASE_SECONDS, makeFlexibleRateLimiter } from "./flexible-rate-limiter.ts";

export interface PostgresRateLimiterOptions {
  leaseSeconds?: number;
  /** Made by the library if missing; one row per key and counter. */
  tableName?: string;
}

/**
 * Counts in PostgreSQL, so every docent instance on one database shares each
 * key's budget. Windows end by the clock of the instance that opened them:
 * keep the instances' clocks in sync (NTP).
 */
export async function createPostgresRateLimiter(
  url: string,
  limits: RateLimits,
  { leaseSeconds = DEFAULT_LEASE_SECONDS, tableName = "rate_limit_counters" }: PostgresRateLimiterOptions = {},
): Promise<RateLimiter & { close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: url });
  // An idle connection that breaks (database restarted) emits 'error'; unheard, it would end the process. The next query reconnects.
  pool.on("error", () => {});
  const counter = (keyPrefix: string, limit: number, duration: number) =>
    new Promise<Counter>((resolve, reject) => {
      // No sweeping timer: each key has one row per counter, reused from window to window, so nothing piles up.
      const options = { storeClient: pool, storeType: "pool", tableName, keyPrefix, points: limit, duration, clearExpiredByTimeout: false };
      const store: RateLimiterPostgres = new RateLimiterPostgres(options, (error) => (error ? reject(error) : resolve({ store, limit })));
    });
  try {
    // Instances started together would race the library's CREATE TABLE IF NOT EXISTS ("type … already exists"):
    // one creator at a time across processes, as the migrations run.
    const lock = await pool.connect();
    try {
      await lock.query("SELECT pg_advisory_lock(72707370)");
      // Both counters share one table (rows keyed minute:<key id> and concurrent:<key id>).
      const perMinute = limits.perMinute > 0 ? await counter("minute", limits.perMinute, 60) : null;
      const concurrent = limits.concurrent > 0 ? await counter("concurrent", limits.concurrent, leaseSeconds) : null;
      return { ...makeFlexibleRateLimiter({ perMinute, concurrent }), close: () => pool.end() };
    } finally {
      await lock.query("SELECT pg_advisory_unlock(72707370)").catch(() => {});
      lock.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
}
