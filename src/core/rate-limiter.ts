import { DocentError, waitSeconds } from "./errors.ts";

/**
 * The rate-limiter port: every authenticated request acquires a lease for its
 * API key before any work and releases it when its response has ended.
 * Implementations: src/rate-limit/ (memory, PostgreSQL, none).
 */
export interface RateLimiter {
  /**
   * Counts `units` requests (default 1; a batch's calls) against the key's
   * per-minute budget and takes as many of its concurrent slots, or throws
   * DocentError TOO_MANY_REQUESTS (reason `rate_limit_exceeded`, retryable,
   * `retryAfter` in seconds). A refused acquire spends nothing.
   */
  acquire(keyId: string, units?: number): Promise<Lease>;
}

export interface Lease {
  /**
   * Gives the concurrent slot back. Idempotent; never rejects. Resolves once
   * the slot is free, so a caller that awaits it before ending its response
   * lets the client start its next request at once.
   */
  release(): Promise<void>;
}

/** Per key; 0 turns a limit off. */
export interface RateLimits {
  perMinute: number;
  concurrent: number;
}

/** The error every implementation throws, so each interface maps one shape (REST: 429 with Retry-After). */
export function rateLimitExceeded(limit: "per-minute" | "concurrent", value: number, retryAfterSeconds: number): DocentError {
  const retryAfter = waitSeconds({ retryAfter: retryAfterSeconds })!;
  const requests = `${value} request${value === 1 ? "" : "s"}`;
  const message =
    limit === "per-minute"
      ? `Rate limit reached: this API key may make ${requests} per minute. Try again in ${retryAfter} s.`
      : `Too many concurrent requests: this API key may have ${requests} in progress at once. Try again in ${retryAfter} s, once one has finished.`;
  return new DocentError("TOO_MANY_REQUESTS", message, { reason: "rate_limit_exceeded", retryable: true, retryAfter });
}
