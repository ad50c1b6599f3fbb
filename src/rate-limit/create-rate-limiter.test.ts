import { describe, expect, it } from "vitest";
import { createRateLimiter, noRateLimiter } from "./create-rate-limiter.ts";

describe("createRateLimiter", () => {
  it("returns the no-op limiter when both limits are 0", async () => {
    expect(await createRateLimiter({ RATE_LIMIT_PER_MINUTE: 0, MAX_CONCURRENT_PER_KEY: 0, DATABASE_URL: undefined })).toBe(noRateLimiter);
    const lease = await noRateLimiter.acquire("k");
    await lease.release();
  });

  it("counts in memory unless DATABASE_URL is PostgreSQL", async () => {
    const limiter = await createRateLimiter({ RATE_LIMIT_PER_MINUTE: 0, MAX_CONCURRENT_PER_KEY: 1, DATABASE_URL: "file:/tmp/unused.db" });
    expect(limiter).not.toBe(noRateLimiter);
    await limiter.acquire("k");
    await expect(limiter.acquire("k")).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", retryAfter: 1 });
    await limiter.close();
  });
});
