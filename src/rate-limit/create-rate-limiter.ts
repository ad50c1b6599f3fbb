import type { Config } from "../config.ts";
import type { RateLimiter } from "../core/rate-limiter.ts";
import { isPostgresUrl } from "../db/prisma-client.ts";
import { createMemoryRateLimiter } from "./memory-rate-limiter.ts";

export type ClosableRateLimiter = RateLimiter & { close(): Promise<void> };

/** Both limits off: every request gets a lease at once. */
export const noRateLimiter: ClosableRateLimiter = {
  acquire: async () => ({ release: async () => {} }),
  close: async () => {},
};

/**
 * The limiter the configuration asks for: none when both limits are 0, in
 * PostgreSQL when DATABASE_URL is one (instances share each key's budget),
 * else in memory.
 */
export async function createRateLimiter(
  config: Pick<Config, "RATE_LIMIT_PER_MINUTE" | "MAX_CONCURRENT_PER_KEY" | "DATABASE_URL">,
  options: { leaseSeconds?: number } = {},
): Promise<ClosableRateLimiter> {
  const limits = { perMinute: config.RATE_LIMIT_PER_MINUTE, concurrent: config.MAX_CONCURRENT_PER_KEY };
  if (limits.perMinute === 0 && limits.concurrent === 0) return noRateLimiter;
  if (isPostgresUrl(config.DATABASE_URL)) {
    const { createPostgresRateLimiter } = await import("./postgres-rate-limiter.ts");
    return createPostgresRateLimiter(config.DATABASE_URL!, limits, options);
  }
  return { ...createMemoryRateLimiter(limits, options), close: async () => {} };
}
