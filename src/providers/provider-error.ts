import { DocentError, isAbortError } from "../core/errors.ts";
import { retryAfterSeconds } from "./retry-timing.ts";

export interface ProviderLabel {
  /** The public model name, e.g. `provider_a`. */
  name: string;
  provider: string;
  modelId: string;
  /** The environment variables that configure it, for hints. */
  keyVariable: string;
  modelVariable: string;
}

/** How errors name a provider model: `provider_a (openai gpt-x)`. */
export const describeProvider = (label: ProviderLabel) => `${label.name} (${label.provider} ${label.modelId})`;

/**
 * Maps an error thrown by the `openai` or `@anthropic-ai/sdk` SDK (both are
 * Stainless SDKs with the same error shapes) to a DocentError. Aborts are
 * returned unchanged so callers can recognise them.
 */
export function mapProviderError(error: unknown, label: ProviderLabel): unknown {
  if (isAbortError(error) || error instanceof DocentError) return error;
  const who = describeProvider(label);
  const e = error as { name?: string; status?: number; message?: string; type?: string; headers?: Parameters<typeof retryAfterSeconds>[0] };
  const detail = publicDetail(e.message ?? String(error));
  // The provider's own Retry-After travels with every retryable error, for the caller.
  const retryAfter = retryAfterSeconds(e.headers);
  if (e.name === "APIConnectionTimeoutError") {
    return new DocentError("GATEWAY_TIMEOUT", `${who} did not answer in time.`, { retryable: true, cause: error, reason: "provider_timeout" });
  }
  // An error event inside a stream has no status, only the provider's error type.
  if (e.status === undefined && (e.type === "overloaded_error" || e.type === "rate_limit_error")) {
    return new DocentError("SERVICE_UNAVAILABLE", `${who} is overloaded or rate-limited; try again shortly.`, {
      retryable: true,
      retryAfter,
      cause: error,
      reason: "provider_unavailable",
    });
  }
  if (e.name === "APIConnectionError" || e.status === undefined) {
    // A connection's own error names addresses on the service's network: logged (the cause), not told.
    // An error the provider sent inside its stream is its own report, said as such.
    const said = e.name === "APIConnectionError" ? `${who} could not be reached or broke off` : `${who} reported an error during the reply: ${detail}`;
    return new DocentError("BAD_GATEWAY", said, {
      retryable: true,
      retryAfter,
      cause: error,
      reason: "provider_unreachable",
    });
  }
  const status = e.status;
  if (status === 401 || status === 403) {
    return new DocentError("BAD_GATEWAY", `${who} rejected the service's credentials; check ${label.keyVariable}.`, {
      cause: error,
      reason: "provider_auth_failed",
    });
  }
  if (status === 404) {
    return new DocentError("BAD_GATEWAY", `${who} does not know the model '${label.modelId}'; check ${label.modelVariable}.`, {
      cause: error,
      reason: "provider_model_not_found",
    });
  }
  if (status === 400 || status === 422) {
    return new DocentError("BAD_REQUEST", `${who} rejected the request: ${detail}`, { cause: error, reason: "provider_rejected_request" });
  }
  if (status === 429 || status === 503 || status === 529) {
    return new DocentError("SERVICE_UNAVAILABLE", `${who} is overloaded or rate-limited; try again shortly.`, {
      retryable: true,
      retryAfter,
      cause: error,
      reason: "provider_unavailable",
    });
  }
  if (status === 408 || status === 504) {
    return new DocentError("GATEWAY_TIMEOUT", `${who} timed out.`, { retryable: true, retryAfter, cause: error, reason: "provider_timeout" });
  }
  return new DocentError("BAD_GATEWAY", `${who} failed (HTTP ${status}): ${detail}`, {
    retryable: status >= 500,
    retryAfter: status >= 500 ? retryAfter : null,
    cause: error,
    reason: "provider_error",
  });
}

/**
 * A provider's error message as a caller may read it: what it says about the
 * request ("maximum context length is 8192 tokens") without what it may echo
 * of the service (a key or bearer token, a file path, a stack trace) or pages
 * of text; the whole message stays in the log through the error's cause.
 */
export function publicDetail(message: string): string {
  // Cut first: the patterns below are linear per start but run from many starts, and a message can be megabytes.
  return (
    message
      .slice(0, 2000)
      .replace(/\n\s+at\s[\s\S]*$/, "")
      .replace(/\b(bearer|basic)\s+\S+/gi, "$1 [redacted]")
      // `token=…`, `secret: …`, `password=…`: the name kept, what it names not.
      // (four characters at least: "key: is invalid" names no key)
      .replace(/\b(password|passwd|pwd|secret|token|credentials?|api[-_]?key|key|auth(?:orization)?)(\s*[=:]\s*)[^\s,;&)]{4,}/gi, "$1$2[redacted]")
      .replace(/\/\/[^\s/@]+@/g, "//[redacted]@")
      .replace(/\b(?:sk|pk|rk|ak|key|api[-_]?key|token|secret)[-_][\w-]{6,}/gi, "[redacted]")
      // Cloud access key ids too short for the rule below (AWS's are 20 characters).
      .replace(/\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g, "[redacted]")
      .replace(/[A-Za-z0-9+/_=-]{32,}/g, "[redacted]")
      .replace(/(?:[A-Za-z]:)?(?:[\\/][\w.@-]+){2,}(?::\d+){0,2}/g, "[path]")
      // Addresses on the provider's (or the service's) network: an IP, or a host with its port.
      .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g, "[address]")
      .replace(/\b(?:(?:[A-Za-z0-9][\w-]*\.)+[A-Za-z][\w-]*|localhost):\d{2,5}\b/g, "[address]")
      // IPv6: bracketed (`[fd00::1]:8080`), or with a `::`, or all eight groups.
      .replace(/\[(?=[^\]]*:)[\dA-Fa-f:.]+(?:%[\w.-]+)?\](?::\d{1,5})?/g, "[address]")
      .replace(/(?<![\w:])(?=[\dA-Fa-f:]*::)(?=:*[\dA-Fa-f])[\dA-Fa-f]{0,4}(?::[\dA-Fa-f]{0,4}){2,7}(?![\w:])/g, "[address]")
      .replace(/(?<![\w:])[\dA-Fa-f]{1,4}(?::[\dA-Fa-f]{1,4}){7}(?![\w:])/g, "[address]")
      // Host names of a private network, even without a port (a cluster's, a LAN's).
      .replace(/\b(?:[a-z0-9][\w-]*\.)+(?:local|localdomain|internal|intranet|lan|corp|svc|home\.arpa)\b/g, "[address]")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 300)
  );
}
