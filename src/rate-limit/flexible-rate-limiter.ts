import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import { type Lease, type RateLimiter, rateLimitExceeded } from "../core/rate-limiter.ts";

/**
 * How long a concurrent slot may stay counted without being released. The
 * slot counter of a key is a window of this length: when it ends the count
 * starts again from zero, so the slots of a process that died mid-request
 * come back within this time. 300 s outlasts an ordinary answer (a provider
 * call times out after 120 s by default); a request that runs longer merely
 * stops being counted, so for a moment a key may run up to twice its cap.
 */
export const DEFAULT_LEASE_SECONDS = 300;

/** One of the library's counters and the limit it enforces (its `points`). */
export interface Counter {
  store: RateLimiterAbstract;
  limit: number;
}

export interface FlexibleCounters {
  /** Requests per key in a 60 s window. */
  perMinute: Counter | null;
  /** Requests in progress per key, in a window of the lease time (0: never resets). */
  concurrent: Counter | null;
}

/** Points taken from a counter, which can be given back within its window. */
interface Point {
  giveBack(): Promise<void>;
}

type Outcome = { kind: "granted"; point: Point } | { kind: "refused"; point: Point; msBeforeNext: number } | { kind: "failed"; error: unknown };

async function take(store: RateLimiterAbstract, key: string, units: number): Promise<Outcome> {
  // Taken before the call, so `startedAt + msBeforeNext` never overshoots the window's real end.
  const startedAt = Date.now();
  const point = (res: RateLimiterRes): Point => {
    const windowEndsAt = res.msBeforeNext < 0 ? Infinity : startedAt + res.msBeforeNext;
    return {
      async giveBack() {
        // After a reset the point is gone already: giving it back would lend the new window a free one.
        if (Date.now() >= windowEndsAt) return;
        // A store that fails here costs the key this point until the window ends: bounded, so not an error.
        await store.reward(key, units).catch(() => {});
      },
    };
  };
  try {
    return { kind: "granted", point: point(await store.consume(key, units)) };
  } catch (error) {
    // The library rejects with a RateLimiterRes when over the limit (the point is counted even so), or with the store's error.
    if (error instanceof RateLimiterRes) return { kind: "refused", point: point(error), msBeforeNext: error.msBeforeNext };
    return { kind: "failed", error };
  }
}

/** A RateLimiter over rate-limiter-flexible counters: the same logic for every store. */
export function makeFlexibleRateLimiter({ perMinute, concurrent }: FlexibleCounters): RateLimiter {
  return {
    async acquire(keyId: string, units = 1): Promise<Lease> {
      const [minute, slot] = await Promise.all([perMinute && take(perMinute.store, keyId, units), concurrent && take(concurrent.store, keyId, units)]);
      const outcomes = [minute, slot].filter((o): o is Outcome => o !== null);
      if (outcomes.some((o) => o.kind !== "granted")) {
        // A refused request spends nothing: give back every point it took, refused ones included.
        await Promise.all(outcomes.map((o) => (o.kind === "failed" ? undefined : o.point.giveBack())));
        const failed = outcomes.find((o) => o.kind === "failed");
        if (failed) throw failed.error;
        if (minute?.kind === "refused") throw rateLimitExceeded("per-minute", perMinute!.limit, minute.msBeforeNext / 1000);
        // When a slot frees cannot be known; a second is the shortest Retry-After there is.
        throw rateLimitExceeded("concurrent", concurrent!.limit, 1);
      }
      let released: Promise<void> | null = null;
      return { release: () => (released ??= slot?.kind === "granted" ? slot.point.giveBack() : Promise.resolve()) };
    },
  };
}
