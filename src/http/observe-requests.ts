import type { ServerResponse } from "node:http";
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

/** How long a stream's line waits for the outcomes of completions still ending after the stream did. */
const OUTCOME_WAIT_MS = 2000;

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
    if (!c.res.headers.get("content-type")?.startsWith("text/event-stream")) return ended();
    // Served by Node: the response's own `close` (after its end, or when the client left) says when the stream ended,
    // with no second stream in the way of each event. A client that left ends its completions a few turns later
    // (the provider's socket closes first): the line waits for their outcomes, not for ever.
    const logged = () => void trace.settled(OUTCOME_WAIT_MS).then(ended);
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    // A client that left while the handler still ran has closed it already: no `close` is to come.
    if (outgoing?.closed) logged();
    else if (outgoing) outgoing.once("close", logged);
    else c.res = afterBody(c.res, logged);
  };
}
