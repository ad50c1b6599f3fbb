import type { MiddlewareHandler } from "hono";
import { admit, type AdmitDeps, type Caller } from "../auth/admit.ts";
import { toDocentError, type DocentError } from "../core/errors.ts";

export type Admission = { caller: Caller } | { error: DocentError };
export type AdmissionEnv = { Variables: { admission: Admission } };

/**
 * Authentication and rate limits for every interface, in one middleware: the
 * caller (or why it was refused) is set on the context, and the request's
 * share of its key's limits is given back when the response — a stream
 * included — has ended or the client has gone. REST throws the refusal;
 * GraphQL and tRPC raise it in their own error form (`admission.error`).
 */
export function admission(deps: AdmitDeps, { reject, streamToken }: { reject: boolean; streamToken?: (request: Request) => { keyId: string | null } | null }): MiddlewareHandler<AdmissionEnv> {
  return async (c, next) => {
    let admitted;
    try {
      admitted = await admit(deps, { authorization: c.req.header("authorization") ?? null, streamToken: streamToken?.(c.req.raw) });
    } catch (error) {
      if (reject) throw error;
      c.set("admission", { error: toDocentError(error) });
      return next();
    }
    c.set("admission", { caller: admitted.caller });
    // Without limits there is nothing to give back: leave the response as it is.
    if (!deps.acquire) return next();
    try {
      await next();
    } catch (error) {
      admitted.release();
      throw error;
    }
    const body = c.res.body;
    if (!body) admitted.release();
    else c.res = releasedAtEnd(c.res, body, admitted.release);
  };
}

/** The same response, calling `release` once its body has been sent or abandoned. */
function releasedAtEnd(response: Response, source: ReadableStream<Uint8Array>, release: () => void): Response {
  const reader = source.getReader();
  let released = false;
  const done = () => {
    if (!released) (released = true), release();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: finished } = await reader.read();
        if (finished) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    async cancel(reason) {
      done();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The admitted caller, or the refusal thrown (REST's middleware already threw it). */
export function callerOf(admission: Admission): Caller {
  if ("error" in admission) throw admission.error;
  return admission.caller;
}
