import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DocentError } from "./errors.ts";
import type { RateLimiter, RateLimits } from "./rate-limiter.ts";

/**
 * The contract every RateLimiter implementation runs (memory, PostgreSQL):
 * the per-minute budget, the concurrency cap and its release, refusals that
 * spend nothing, independent keys, and slots that come back after the lease
 * time when their holder vanished.
 */
export type RateLimiterSetup = (limits: RateLimits, options?: { leaseSeconds?: number }) => Promise<{ limiter: RateLimiter; cleanup?: () => Promise<void> }>;

/** The refusal, or a failure naming what was returned instead. */
async function refusal(attempt: Promise<unknown>): Promise<DocentError> {
  const error = await attempt.then(
    () => new Error("expected a refusal, got a lease"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocentError);
  const refused = error as DocentError;
  expect(refused).toMatchObject({ code: "TOO_MANY_REQUESTS", reason: "rate_limit_exceeded", retryable: true });
  return refused;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function rateLimiterContract(name: string, setup: RateLimiterSetup) {
  describe(`RateLimiter contract: ${name}`, () => {
    // A fresh key per test: implementations that share a store do not see each other's counts.
    const key = () => `key-${randomUUID()}`;

    it("refuses a request past the per-minute budget and says when to retry", async () => {
      const { limiter, cleanup } = await setup({ perMinute: 3, concurrent: 0 });
      const k = key();
      // With no concurrency cap, leases need not be released.
      for (let i = 0; i < 3; i++) await limiter.acquire(k);
      const refused = await refusal(limiter.acquire(k));
      await cleanup?.();
      expect(refused.retryAfter).toBeGreaterThan(0);
      expect(refused.retryAfter).toBeLessThanOrEqual(60);
      expect(refused.message).toMatch(/3 requests per minute/);
      expect(refused.message).toContain(`Try again in ${refused.retryAfter} s`);
    });

    it("caps requests in progress and frees a slot on release", async () => {
      const { limiter, cleanup } = await setup({ perMinute: 0, concurrent: 2 });
      const k = key();
      const first = await limiter.acquire(k);
      const second = await limiter.acquire(k);
      const refused = await refusal(limiter.acquire(k));
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refused.message).toMatch(/2 requests in progress/);
      await first.release();
      const third = await limiter.acquire(k);
      await refusal(limiter.acquire(k));
      await Promise.all([second.release(), third.release()]);
      // With no per-minute budget, many more go through one at a time.
      for (let i = 0; i < 20; i++) await (await limiter.acquire(k)).release();
      await cleanup?.();
    });

    it("releases a lease once however often release is called", async () => {
      const { limiter, cleanup } = await setup({ perMinute: 0, concurrent: 2 });
      const k = key();
      const first = await limiter.acquire(k);
      await limiter.acquire(k);
      await Promise.all([first.release(), first.release()]);
      await first.release();
      await limiter.acquire(k);
      // Had each call given a slot back, this one would pass.
      await refusal(limiter.acquire(k));
      await cleanup?.();
    });

    it("counts a batch's units at once, and nothing when the batch does not fit", async () => {
      const { limiter, cleanup } = await setup({ perMinute: 4, concurrent: 3 });
      const k = key();
      // Three units fit the concurrency cap, not four; the refused four spend nothing.
      await refusal(limiter.acquire(k, 4));
      const three = await limiter.acquire(k, 3);
      await refusal(limiter.acquire(k));
      await three.release();
      // The minute's budget holds one more of its four.
      await limiter.acquire(k);
      const refused = await refusal(limiter.acquire(k));
      expect(refused.message).toMatch(/4 requests per minute/);
      await cleanup?.();
    });

    it("counts nothing for a refused request", async () => {
      const { limiter, cleanup } = await setup({ perMinute: 3, concurrent: 1 });
      const k = key();
      const held = await limiter.acquire(k);
      for (let i = 0; i < 5; i++) await refusal(limiter.acquire(k));
      await held.release();
      // The five refusals took neither slots nor the two requests left in this minute.
      await (await limiter.acquire(k)).release();
      await (await limiter.acquire(k)).release();
      const refused = await refusal(limiter.acquire(k));
      await cleanup?.();
      expect(refused.message).toMatch(/per minute/);
    });

    it("keeps each key's budget apart", async () => {
      const { limiter, cleanup } = await setup({ perMinute: 1, concurrent: 1 });
      const [a, b] = [key(), key()];
      await limiter.acquire(a);
      await refusal(limiter.acquire(a));
      const lease = await limiter.acquire(b);
      await cleanup?.();
      expect(lease).toBeDefined();
    });

    it("frees the slots of a vanished holder after the lease time, and its late release frees nothing more", async () => {
      const { limiter, cleanup } = await setup({ perMinute: 0, concurrent: 2 }, { leaseSeconds: 1 });
      const k = key();
      const lost = [await limiter.acquire(k), await limiter.acquire(k)];
      await refusal(limiter.acquire(k));
      await sleep(1100);
      await limiter.acquire(k);
      await limiter.acquire(k);
      // The lost leases' window has ended: releasing them now must not lend the new window slots.
      await Promise.all(lost.map((l) => l.release()));
      await refusal(limiter.acquire(k));
      await cleanup?.();
    });
  });
}
