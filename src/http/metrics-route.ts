import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, Handler } from "hono";
import type { Registry } from "prom-client";
import { DocentError } from "../core/errors.ts";
import { hostnameOf } from "../public-url.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Compares in time that does not depend on where the strings differ (both are hashed to one length first). */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/** Loopback: this machine (127.0.0.0/8, ::1, and IPv4 loopback written as IPv6). */
const isLoopback = (address: string | undefined) => !!address && /^(127\.|::1$|::ffff:127\.)/.test(address);

/** A request from a loopback address that no proxy passed on (proxies on this machine say so in these headers). */
function fromThisMachine(c: Context): boolean {
  if (["forwarded", "x-forwarded-for", "x-real-ip"].some((name) => c.req.header(name) !== undefined)) return false;
  return isLoopback((c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress);
}

/**
 * Asked for by a loopback name (or the public URL's host), as this machine's own
 * clients ask: a web page whose name was rebound to 127.0.0.1 (DNS rebinding)
 * comes from this machine but names its own host, and must not read the metrics.
 */
function namedLocally(url: string, ownHost: string | null): boolean {
  const name = hostnameOf(url)?.replace(/\.$/, "");
  if (!name) return false;
  // `localhost` and the names under it resolve to this machine by definition (RFC 6761), as browsers resolve them.
  return name === "localhost" || name.endsWith(".localhost") || name === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(name) || name === ownHost;
}

/**
 * GET /metrics: the registry in Prometheus' text format. With a token, only
 * `Authorization: Bearer <token>` may read it (Prometheus' `authorization`
 * scrape setting); API keys do not open it. Without one, only this machine
 * may: the metrics name every knowledge source, which a key limited to some
 * sources must not learn, and a server on 0.0.0.0 would tell anyone.
 */
export function metricsRoute(
  registry: Registry,
  token: string | undefined,
  { host = "127.0.0.1", publicUrl }: { host?: string; publicUrl?: string } = {},
): Handler {
  // Listening beyond this machine, a proxy on it may pass anyone on without saying so (a bare nginx
  // proxy_pass, a TCP forwarder): then only the token opens the metrics.
  const localOnly = isLoopback(host) || host === "localhost";
  const ownHost = hostnameOf(publicUrl);
  return async (c) => {
    if (!token && (!localOnly || !fromThisMachine(c) || !namedLocally(c.req.url, ownHost))) {
      throw new DocentError(
        "FORBIDDEN",
        "Without METRICS_TOKEN the metrics are served only on a loopback HOST, to this machine; set METRICS_TOKEN to scrape them.",
        {
          reason: "metrics_local_only",
        },
      );
    }
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
