import type { CompletionOutcome } from "../core/completion-outcome.ts";
import type { Logger } from "../logging/logger.ts";
import type { RequestListener } from "./observe-requests.ts";

/** Scraped and probed every few seconds: at debug level, so they do not bury the requests that matter. */
const QUIET_ROUTES = new Set(["/healthz", "/metrics"]);

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
 * One log line per request: request id, route, interface, status, duration,
 * key id (never the key), and its completions' model, sources, references and
 * refusal. The question's text only when `logQuestions`.
 */
export function logRequests(logger: Logger, { logQuestions }: { logQuestions: boolean }): RequestListener {
  return (record) => {
    const line = {
      request_id: record.requestId,
      method: record.method,
      route: record.route,
      interface: record.interface,
      status: record.status,
      duration_ms: Math.round(record.durationMs * 10) / 10,
      key_id: record.keyId,
      ...(record.errorCode && { error: record.errorCode }),
      ...completionFields(record.outcomes, { logQuestions }),
    };
    const level = record.status >= 500 ? "error" : QUIET_ROUTES.has(record.route) ? "debug" : "info";
    logger[level](line, "request");
  };
}
