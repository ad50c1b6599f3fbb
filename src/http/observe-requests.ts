import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { CompletionOutcome, InterfaceName } from "../core/completion-outcome.ts";
import { afterBody } from "./after-body.ts";
import type { TraceEnv } from "./request-trace.ts";

/** One request as it ended: what the log line and the request metrics are made of. */
export interface RequestRecord {
  requestId: string;
  method: string;
  /** The route pattern that served it (`/v1/sources/:id`), `unmatched` when none did. */
  route: string;
  interface: InterfaceName;
  status: number;
  durationMs: number;
  keyId: string | null;
  /** Why it was refused or failed (an error's reason or code). */
  errorCode: string | null;
  outcomes: readonly CompletionOutcome[];
}

export type RequestListener = (record: RequestRecord) => void;

/**
 * The route pattern, never the raw path: bounded for metrics labels, and free
 * of ids and query strings for logs.
 */
export function routeOf(c: Context): string {
  const route = routePath(c);
  return !route || route === "*" || route === "/*" ? "unmatched" : route;
}

/**
 * Tells the listeners of each request once its response has ended (an event
 * stream's too, so its duration and completions are whole). Runs inside
 * the trace middleware.
 */
export function observeRequests(listeners: readonly RequestListener[]): MiddlewareHandler<TraceEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const trace = c.get("trace");
    const route = trace.route ?? routeOf(c);
    const status = c.res.status;
    const ended = () => {
      const record: RequestRecord = {
        requestId: trace.requestId,
        method: c.req.method,
        route,
        interface: trace.interface,
        status,
        durationMs: performance.now() - started,
        keyId: trace.keyId,
        errorCode: trace.errorCode,
        outcomes: trace.outcomes,
      };
      for (const listener of listeners) listener(record);
    };
    if (c.res.headers.get("content-type")?.startsWith("text/event-stream")) c.res = afterBody(c.res, ended);
    else ended();
  };
}
