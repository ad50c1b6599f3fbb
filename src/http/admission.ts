import type { Context, MiddlewareHandler } from "hono";
import { type Admission, type AdmitDeps, admit, type Caller } from "../auth/admit.ts";

export { type Admission, callerOf } from "../auth/admit.ts";

import { watchKey } from "../auth/key-watch.ts";
import { type DocentError, toDocentError } from "../core/errors.ts";
import type { Lease, RateLimiter } from "../core/rate-limiter.ts";
import { holdUntilBodyEnds } from "./rate-limit.ts";
import type { HttpTrace } from "./request-trace.ts";

/** `trace` is set by the app's outermost middleware (http/request-trace.ts); absent when a door is mounted alone. */
export type AdmissionEnv = { Variables: { admission: Admission; trace?: HttpTrace } };

/**
 * Authentication and rate limits for every interface, in one middleware: the
 * caller (or why it was refused) is set on the context, and the request's
 * share of its key's limits is given back when the response — a stream
 * included — has ended or the client has gone. REST throws the refusal; the
 * other doors answer it in their own error form (`refuse`).
 */
export function admission(
  deps: AdmitDeps,
  {
    refuse,
    streamToken,
    freeOfLimits,
  }: {
    /** Answers a refusal in the door's own error shape, before its body is read (a keyless flood must cost next to nothing); REST, without it, throws. */
    refuse?: (error: DocentError, c: Context<AdmissionEnv>) => Response | Promise<Response>;
    streamToken?: (request: Request) => { keyId: string | null } | null;
    /** Requests that only stop work (graphql-sse's DELETE of an operation): authenticated, but they take no share of the key's limits, so a key at its cap can still cancel. */
    freeOfLimits?: (request: Request) => boolean;
  },
): MiddlewareHandler<AdmissionEnv> {
  return async (c, next) => {
    let admitted: Awaited<ReturnType<typeof admit>>;
    try {
      const credentials = { authorization: c.req.header("authorization") ?? null, streamToken: streamToken?.(c.req.raw) };
      admitted = await admit(freeOfLimits?.(c.req.raw) ? { ...deps, limiter: unlimited } : deps, credentials);
    } catch (error) {
      const refusal = toDocentError(error);
      const trace = c.get("trace");
      if (trace) trace.errorCode = refusal.reason ?? refusal.code;
      if (!refuse) throw error;
      return refuse(refusal, c);
    }
    // The key id (never the key) goes with the request's trace, and the trace with the caller to the core.
    const trace = c.get("trace");
    if (trace) trace.keyId = admitted.caller.key.id;
    // The key is re-checked for as long as the request holds its share of the key's limits.
    const watch = watchKey(deps.keys, admitted.caller.key.id);
    const lease: Lease = {
      release: () => {
        watch.stop();
        return admitted.lease.release();
      },
    };
    let kept = false;
    const keepLease = () => {
      kept = true;
      return lease;
    };
    c.set("admission", { caller: { ...admitted.caller, trace, keepLease, keySignal: watch.signal } });
    try {
      await next();
    } catch (error) {
      if (!kept) await lease.release();
      throw error;
    }
    if (kept) return;
    // HEAD runs the GET handler and sends no body: a stream it began is never read, so it is ended here.
    if (c.req.method === "HEAD") {
      await c.res.body?.cancel().catch(() => {});
      return void (await lease.release());
    }
    // A JSON reply is complete when the handler returns; a stream has only begun.
    if (streams(c.req.raw, c.res)) c.res = holdUntilBodyEnds(c.res, lease);
    else await lease.release();
  };
}

const unlimited: RateLimiter = { acquire: async () => ({ release: async () => {} }) };

/**
 * A request that carries several operations (a tRPC batch, an MCP batch of tool
 * calls) counts each against its key's limits: the admission counted the
 * request, this counts the other calls (as requests of the minute's budget and
 * concurrent slots) at once, or throws TOO_MANY_REQUESTS having counted none of them.
 */
export async function acquireMore(limiter: RateLimiter, caller: Caller, operations: number): Promise<Lease> {
  return operations > 1 ? limiter.acquire(caller.key.id, operations - 1) : { release: async () => {} };
}

/**
 * Whether a response is still being written when its handler returns: an event
 * stream, or tRPC's streamed batch (asked for with `trpc-accept` or `accept`
 * naming application/jsonl, sent as application/json in chunks). Its leases
 * are held until its body ends. Either header naming it counts, a superset of
 * what tRPC streams for: holding a complete reply's lease to its end is harmless.
 */
export const streams = (request: Request, response: Response) =>
  response.headers.get("content-type")?.startsWith("text/event-stream") === true ||
  [request.headers.get("trpc-accept"), request.headers.get("accept")].some((header) => header?.split(",").some((type) => type.trim() === "application/jsonl"));

/** Holds `more` until the response (a stream included) has ended. */
export function releasedWith(request: Request, response: Response, more: Lease): Response {
  if (streams(request, response)) return holdUntilBodyEnds(response, more);
  void more.release();
  return response;
}
