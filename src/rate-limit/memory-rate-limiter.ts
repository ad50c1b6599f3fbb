import { RateLimiterMemory } from "rate-limiter-flexible";
import type { RateLimiter, RateLimits } from "../core/rate-limiter.ts";
import { DEFAULT_LEASE_SECONDS, makeFlexibleRateLimiter } from "./flexible-rate-limiter.ts";

/** Counts in this process: the default, right for one docent instance. */
export function createMemoryRateLimiter(limits: RateLimits, { leaseSeconds = DEFAULT_LEASE_SECONDS } = {}): RateLimiter {
  return makeFlexibleRateLimiter({
    perMinute:
      limits.perMinute > 0 ? { limit: limits.perMinute, store: new RateLimiterMemory({ keyPrefix: "minute", points: limits.perMinute, duration: 60 }) } : null,
    concurrent:
      limits.concurrent > 0
        ? { limit: limits.concurrent, store: new RateLimiterMemory({ keyPrefix: "concurrent", points: limits.concurrent, duration: leaseSeconds }) }
        : null,
  });
}
