import { rateLimiterContract } from "../core/rate-limiter.contract.ts";
import { createMemoryRateLimiter } from "./memory-rate-limiter.ts";

rateLimiterContract("memory", async (limits, options) => ({ limiter: createMemoryRateLimiter(limits, options) }));
