import { setTimeout as sleep } from "node:timers/promises";
import pRetry from "p-retry";
import { DocentError, isAbortError } from "../core/errors.ts";
import type { LanguageModel, ModelStreamPart } from "../core/language-model.ts";
import { linkedSignal } from "./linked-signal.ts";
import { backoffMs, retryDelayMs } from "./retry-timing.ts";

export interface RetryPolicy {
  /** Retries after the first attempt (PROVIDER_MAX_RETRIES). */
  maxRetries: number;
  /** One attempt's time to its first token, or to its whole reply for doGenerate (PROVIDER_TIMEOUT_MS). */
  attemptTimeoutMs: number;
  /** All attempts' time to the first token, waits included (PROVIDER_DEADLINE_MS). */
  deadlineMs: number;
  random?: () => number;
}

const isRetryable = (error: unknown): error is DocentError => error instanceof DocentError && error.retryable;
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * A provider model that tries again, through p-retry. The SDKs retry only
 * the HTTP request (their waits cannot be cancelled and know no deadline),
 * not an error event or a cut that arrives in a stream before any text, so
 * the SDK clients are built with no retries of their own and this is the one
 * place that retries: before the first token, a retryable failure (429, 5xx,
 * a connection error, a time-out, an error or cut before any text) is tried
 * again after the provider's Retry-After or a backoff with jitter, while the
 * deadline allows. After the first token nothing is retried: the stream's
 * own error part ends it. The caller's signal cancels attempts and waits.
 */
export function withRetries(model: LanguageModel, who: string, policy: RetryPolicy): LanguageModel {
  return {
    provider: model.provider,
    modelId: model.modelId,
    supportsStructuredOutput: model.supportsStructuredOutput,
    doGenerate: (options) => retrying((signal) => model.doGenerate({ ...options, abortSignal: signal }), options.abortSignal, who, policy),
    doStream: (options) =>
      retrying(
        async (signal) => ({ stream: await untilFirstToken((await model.doStream({ ...options, abortSignal: signal })).stream, who) }),
        options.abortSignal,
        who,
        policy,
      ),
  };
}

async function retrying<T>(attempt: (signal: AbortSignal) => Promise<T>, caller: AbortSignal | undefined, who: string, policy: RetryPolicy): Promise<T> {
  const started = performance.now();
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(() => deadline.abort(), policy.deadlineMs);
  const signal = caller ? linkedSignal(caller, deadline.signal).signal : deadline.signal;
  let attempts = 0;
  let last: DocentError | undefined;
  // What the caller may wait before trying again when the provider said nothing.
  const suggestedRetryAfter = () => last?.retryAfter ?? Math.ceil(backoffMs(attempts - 1, () => 1) / 1000);
  try {
    return await pRetry(
      async () => {
        attempts++;
        const slow = new AbortController();
        const attemptTimer = setTimeout(() => slow.abort(), policy.attemptTimeoutMs);
        const attemptSignal = linkedSignal(signal, slow.signal);
        try {
          // On success the signal stays linked: the stream it started reads on, and a caller's abort must still reach it.
          return await attempt(attemptSignal.signal);
        } catch (error) {
          attemptSignal.dispose();
          if (slow.signal.aborted && !signal.aborted) {
            throw new DocentError("GATEWAY_TIMEOUT", `${who} gave no answer within ${seconds(policy.attemptTimeoutMs)}.`, {
              retryable: true,
              reason: "provider_timeout",
              cause: error,
            });
          }
          throw error;
        } finally {
          clearTimeout(attemptTimer);
        }
      },
      {
        retries: policy.maxRetries,
        // The waits are chosen below (Retry-After or backoff, within the deadline), not by p-retry.
        minTimeout: 0,
        signal,
        shouldRetry: ({ error }) => isRetryable(error),
        onFailedAttempt: async ({ error, retriesLeft, retriesConsumed }) => {
          if (error instanceof DocentError) last = error;
          if (retriesLeft === 0 || !isRetryable(error) || signal.aborted) return;
          const wait = retryDelayMs(retriesConsumed, error.retryAfter, policy.random);
          // A wait that outlasts the deadline is not started: the caller hears at once, with the provider's Retry-After.
          if (performance.now() - started + wait >= policy.deadlineMs) throw error;
          await sleep(wait, undefined, { signal });
        },
      },
    );
  } catch (error) {
    if (caller?.aborted) throw isAbortError(error) ? error : caller.reason;
    if (deadline.signal.aborted) {
      const lastFailure = last && last !== error ? ` The last attempt: ${last.message}` : "";
      throw new DocentError(
        "GATEWAY_TIMEOUT",
        `${who} gave no answer within ${seconds(policy.deadlineMs)} (${attempts} attempt${attempts === 1 ? "" : "s"}).${lastFailure}`,
        {
          retryable: true,
          retryAfter: suggestedRetryAfter(),
          reason: "provider_timeout",
          cause: last ?? error,
        },
      );
    }
    if (!isRetryable(error)) throw error;
    const tries = attempts > 1 ? ` (${attempts} attempts)` : "";
    throw new DocentError(error.code, `${error.message}${tries}`, {
      param: error.param,
      reason: error.reason,
      retryable: true,
      retryAfter: suggestedRetryAfter(),
      cause: error.cause,
    });
  } finally {
    clearTimeout(deadlineTimer);
  }
}

/**
 * Reads a stream up to its first text (or its finish) so that a failure
 * before it can be retried; then hands on the parts read and the rest.
 */
async function untilFirstToken(stream: AsyncIterable<ModelStreamPart>, who: string): Promise<AsyncIterable<ModelStreamPart>> {
  const parts = stream[Symbol.asyncIterator]();
  const head: ModelStreamPart[] = [];
  try {
    for (;;) {
      const next = await parts.next();
      if (next.done) throw new DocentError("BAD_GATEWAY", `${who} ended its reply before any text.`, { retryable: true, reason: "provider_unreachable" });
      if (next.value.type === "error") throw next.value.error;
      head.push(next.value);
      if (next.value.type === "finish" || next.value.delta) break;
    }
  } catch (error) {
    await parts.return?.().catch(() => {});
    throw error;
  }
  return (async function* () {
    yield* head;
    yield* { [Symbol.asyncIterator]: () => parts };
  })();
}
