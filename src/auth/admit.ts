import { toDocentError } from "../core/errors.ts";
import type { ApiKeyInfo, KeyStore } from "../core/key-store.ts";
import type { SourceScope } from "../core/source-scope.ts";
import { authenticate, invalidKey, isActive } from "./authenticate.ts";

/** Who is calling, as every interface passes it to the core. */
export interface Caller {
  key: ApiKeyInfo;
  scope: SourceScope;
}

/** What a request presented: its Authorization header, or a stream token and the key id it stands for (null: unknown or lapsed). */
export interface Credentials {
  authorization: string | null;
  streamToken?: { keyId: string | null } | null;
}

/** An admitted request: its caller, and what to call when its response has ended. */
export interface Admitted {
  caller: Caller;
  release(): void;
}

export interface AdmitDeps {
  keys: KeyStore;
  /** Counts the request against the key's budget; throws TOO_MANY_REQUESTS when over it. */
  acquire?: (keyId: string) => Promise<{ release(): void }>;
}

/** Authenticates a request and takes its share of the key's limits; throws a DocentError when refused. */
export async function admit({ keys, acquire }: AdmitDeps, { authorization, streamToken }: Credentials): Promise<Admitted> {
  let key: ApiKeyInfo;
  if (streamToken && !authorization) {
    const found = streamToken.keyId ? await keys.get(streamToken.keyId) : null;
    if (!isActive(found)) throw invalidKey();
    key = found;
  } else {
    key = await authenticate(keys, authorization);
  }
  const lease = acquire ? await acquire(key.id).catch((error) => Promise.reject(toDocentError(error))) : null;
  return { caller: { key, scope: key.sourceIds ?? null }, release: () => lease?.release() };
}
