import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { CompletionOutcome } from "../core/completion-outcome.ts";
import type { Logger } from "../logging/logger.ts";
import { afterBody } from "./after-body.ts";
import type { TraceEnv } from "./request-trace.ts";

/** Scraped and probed every few seconds: at debug level, so they do not bury the requests that matter. */
const QUIET_ROUTES = new Set(["/healthz", "/metrics"]);

/**
 * The route pattern that served the request (`/v1/sources/:id`, `/trpc/*`),
 * never the raw path: bounded for metrics labels, and free of ids and query
 * strings for logs. `unmatched` when no route did (404).
 */
export function routeOf(c: Context): string {
  const route = routePath(c);
  return !route || route === "*" || route === "/*" ? "unmatched" : route;
}

/** What one request's completions add to its line: one completion's fields, or several's (a tRPC batch) merged. */
export function completionFields(outcomes: readonly CompletionOutcome[], { logQuestions }: { logQuestions: boolean }) {
  if (outcomes.length === 0) return {};
  const distinct = <T>(values: T[]) => [...new Set(values)];
  const one = outcomes.length === 1 ? outcomes[0]! : null;
  return {
    completion_id: one ? one.completionId : outcomes.map((o) => o.completionId),
    model: distinct(outcomes.map((o) => o.model)).join(","),
    answered_by: distinct(outcomes.map((o) => `${o.provider}/${o.modelId}`)).join(","),
    sources: distinct(outcomes.flatMap((o) => o.sourceIds)),
    references: outcomes.reduce((n, o) => n + o.references.length, 0),
    refused: outcomes.some((o) => o.grounding?.refused === true),
    outcome: distinct(outcomes.map((o) => o.status)).join(","),
    tokens_in: outcomes.reduce((n, o) => n + o.usage.promptTokens, 0),
    tokens_out: outcomes.reduce((n, o) => n + o.usage.completionTokens, 0),
    ...(one?.timings.firstTokenMs != null && { first_token_ms: one.timings.firstTokenMs }),
    ...(logQuestions && { question: one ? one.question : outcomes.map((o) => o.question) }),
  };
}

/**
 * One log line per request, written when its response has ended (an event
 * stream's too): request id, route, interface, status, duration, key id (never
 * the key), and its completions' model, sources, references and refusal.
 * The question's text only when `logQuestions`.
 */
export function requestLog(logger: Logger, { logQuestions }: { logQuestions: boolean }): MiddlewareHandler<TraceEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const trace = c.get("trace");
    const route = trace.route ?? routeOf(c);
    const status = c.res.status;
    const write = () => {
      const line = {
        request_id: trace.requestId,
        method: c.req.method,
        route,
        interface: trace.interface,
        status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        key_id: trace.keyId,
        ...(trace.errorCode && { error: trace.errorCode }),
        ...completionFields(trace.outcomes, { logQuestions }),
      };
      const level = status >= 500 ? "error" : QUIET_ROUTES.has(route) ? "debug" : "info";
      logger[level](line, "request");
    };
    if (c.res.headers.get("content-type")?.startsWith("text/event-stream")) c.res = afterBody(c.res, write);
    else write();
  };
}
