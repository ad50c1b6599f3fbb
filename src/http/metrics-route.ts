import { createHash, timingSafeEqual } from "node:crypto";
import type { Handler } from "hono";
import type { Registry } from "prom-client";
import { DocentError } from "../core/errors.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Compares in time that does not depend on where the strings differ (both are hashed to one length first). */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * GET /metrics: the registry in Prometheus' text format. With a token, only
 * `Authorization: Bearer <token>` may read it (Prometheus' `authorization`
 * scrape setting); API keys do not open it.
 */
export function metricsRoute(registry: Registry, token: string | undefined): Handler {
  return async (c) => {
    if (token) {
      const presented = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
      if (!presented || !sameSecret(presented, token)) {
        throw new DocentError("UNAUTHORIZED", "The metrics need METRICS_TOKEN as a Bearer token: Authorization: Bearer <METRICS_TOKEN>.", {
          reason: presented ? "invalid_metrics_token" : "missing_metrics_token",
        });
      }
    }
    return c.body(await registry.metrics(), 200, { "content-type": registry.contentType, "cache-control": "no-store" });
  };
}
