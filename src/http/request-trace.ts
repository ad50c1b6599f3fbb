import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { CompletionObserver, CompletionOutcome, InterfaceName, RequestTrace } from "../core/completion-outcome.ts";

/** The request's trace over HTTP: the core's, plus the outcomes it collected for the request's log line. */
export interface HttpTrace extends RequestTrace {
  readonly outcomes: CompletionOutcome[];
  /** Why the request was refused or failed (an error's reason or code), for its log line. */
  errorCode: string | null;
  /** Set when no route matched; otherwise the log and metrics read the matched route pattern. */
  route?: string;
  /** Resolves once every completion begun has reported its outcome, or after `waitMs` at most. */
  settled(waitMs: number): Promise<void>;
}

export type TraceEnv = { Variables: { trace: HttpTrace } };

export const REQUEST_ID_HEADER = "x-request-id";

/** A caller's request id is kept when it is short and plain (it lands in logs and headers), else one is made. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestIdFrom(header: string | undefined | null): string {
  return header && SAFE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** A trace whose completions are reported to every observer; one observer's failure neither stops the others nor the reply. */
export function createTrace(
  requestId: string,
  observers: readonly CompletionObserver[],
  onObserverError: (error: unknown, outcome: CompletionOutcome) => void,
): HttpTrace {
  const outcomes: CompletionOutcome[] = [];
  let pending = 0;
  let waiters: Array<() => void> = [];
  return {
    requestId,
    interface: "other",
    keyId: null,
    errorCode: null,
    outcomes,
    begin() {
      pending++;
    },
    settled(waitMs) {
      if (pending <= 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, waitMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        waiters.push(done);
      });
    },
    async complete(outcome) {
      outcomes.push(outcome);
      if (--pending <= 0) {
        const ready = waiters;
        waiters = [];
        for (const wake of ready) wake();
      }
      await Promise.all(
        observers.map(async (observer) => {
          try {
            await observer.onCompletion(outcome);
          } catch (error) {
            onObserverError(error, outcome);
          }
        }),
      );
    },
  };
}

/**
 * The outermost middleware: gives each request its trace (`c.get("trace")`),
 * with the caller's `x-request-id` or a new one, echoed on the response.
 */
export function traceRequests(
  observers: readonly CompletionObserver[],
  { onObserverError }: { onObserverError: (error: unknown, outcome: CompletionOutcome) => void },
): MiddlewareHandler<TraceEnv> {
  return async (c, next) => {
    const trace = createTrace(requestIdFrom(c.req.header(REQUEST_ID_HEADER)), observers, onObserverError);
    c.set("trace", trace);
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, trace.requestId);
  };
}

/** Set by each door's mount: which interface served the request. */
export function labelInterface(name: InterfaceName): MiddlewareHandler<TraceEnv> {
  return async (c, next) => {
    const trace = c.get("trace");
    if (trace) trace.interface = name;
    await next();
  };
}
