import type { KeyStore } from "../core/key-store.ts";
import { invalidKey } from "./authenticate.ts";

/** How often work in progress re-checks its key: as soon as a revocation reaches this process's key cache. */
export const KEY_RECHECK_MS = 1_000;

export interface KeyWatch {
  /** Aborts, with the 401 refusal as its reason, once the key is revoked or has expired. */
  signal: AbortSignal;
  stop(): void;
}

/**
 * Re-checks a key while its request runs, so a key revoked (or expired)
 * mid-answer stops costing: a stream ran on, paying its provider, for as long
 * as the client read it. The first check comes after `intervalMs`, so a
 * request that ends sooner costs one timer; the keys come from the key
 * store's in-memory cache. One check at a time (a chain of timers).
 */
export function watchKey(keys: Pick<KeyStore, "getActive">, keyId: string, intervalMs = KEY_RECHECK_MS): KeyWatch {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const check = async () => {
    // A store that fails to answer is no revocation: the next check asks again.
    const active = await keys.getActive(keyId).then(
      (key) => key !== null,
      () => true,
    );
    if (stopped) return;
    if (!active) return controller.abort(invalidKey());
    timer = setTimeout(check, intervalMs).unref();
  };
  timer = setTimeout(check, intervalMs).unref();
  return {
    signal: controller.signal,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
