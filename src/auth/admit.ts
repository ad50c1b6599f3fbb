import type { RequestTrace } from "../core/completion-outcome.ts";
import type { DocentError } from "../core/errors.ts";
import type { ApiKeyInfo, KeyStore } from "../core/key-store.ts";
import type { Lease, RateLimiter } from "../core/rate-limiter.ts";
import type { SourceScope } from "../core/source-scope.ts";
import { authenticate, invalidKey } from "./authenticate.ts";

/** Who is calling, as every interface passes it to the core. */
export interface Caller {
  key: ApiKeyInfo;
  scope: SourceScope;
  /** The request's trace, passed to runCompletion so its outcome is reported (set by http/admission.ts). */
  trace?: RequestTrace;
  /**
   * Takes over the request's share of its key's limits, for work that goes on
   * after the response (an operation sent into a graphql-sse stream, answered
   * 202 at once): the taker releases it when that work ends (set by http/admission.ts).
   */
  keepLease?: () => Lease;
  /** Aborts, with the 401 refusal as its reason, once the key is revoked or expires while the request (or work that kept its lease) runs (set by http/admission.ts). */
  keySignal?: AbortSignal;
}

/** What a request presented: its Authorization header, or a stream token and the key id it stands for (null: unknown or lapsed). */
export interface Credentials {
  authorization: string | null;
  streamToken?: { keyId: string | null } | null;
}

/** An admitted request: its caller, and the lease to release when its response has ended. */
export interface Admitted {
  caller: Caller;
  lease: Lease;
}

export interface AdmitDeps {
  keys: KeyStore;
  /** Counts the request against the key's budget; throws TOO_MANY_REQUESTS when over it. */
  limiter: RateLimiter;
}

/** Authenticates a request and takes its share of the key's limits; throws a DocentError when refused. */
export async function admit({ keys, limiter }: AdmitDeps, { authorization, streamToken }: Credentials): Promise<Admitted> {
  let key: ApiKeyInfo;
  // A token this process does not know (lapsed, or issued before a restart) with a key beside it is the key's request:
  // graphql-sse then says the stream is gone. A known token must stand for that same key, and an active one.
  if (streamToken && (streamToken.keyId || !authorization)) {
    const found = streamToken.keyId ? await keys.getActive(streamToken.keyId) : null;
    if (!found) throw invalidKey();
    // A token goes with its own key only: another key's header must not send operations into this key's stream.
    if (authorization && (await authenticate(keys, authorization)).id !== found.id) throw invalidKey();
    key = found;
  } else {
    key = await authenticate(keys, authorization);
  }
  const lease = await limiter.acquire(key.id);
  return { caller: { key, scope: key.sourceIds ?? null }, lease };
}

/** What the admission decided for a request: its caller, or why it was refused (each door answers that in its own form). */
export type Admission = { caller: Caller } | { error: DocentError };

/** The admitted caller, or the refusal thrown (REST's middleware already threw it). */
export function callerOf(admission: Admission): Caller {
  if ("error" in admission) throw admission.error;
  return admission.caller;
}
