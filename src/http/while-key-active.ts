import { KEY_RECHECK_MS } from "../auth/key-watch.ts";

/**
 * An event stream that ends once `stillActive` says no (its key revoked or
 * expired): graphql-sse's single-connection stream is opened once with a
 * token, and without this a revoked key's stream stayed open for as long as
 * its client kept it. One check at a time (a chain of timers, not an
 * interval), and the stream is closed once, whichever ends it first.
 */
export function whileKeyActive(body: ReadableStream<Uint8Array>, stillActive: () => Promise<boolean>, intervalMs = KEY_RECHECK_MS): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  /** Ends the stream once: true for the caller that ended it. */
  const end = () => {
    if (ended) return false;
    ended = true;
    clearTimeout(timer);
    return true;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const check = async () => {
        const active = await stillActive().catch(() => true);
        if (ended) return;
        if (active) {
          timer = setTimeout(check, intervalMs).unref();
          return;
        }
        end();
        controller.close();
        void reader.cancel().catch(() => {});
      };
      timer = setTimeout(check, intervalMs).unref();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (ended) return;
      if (!done) return controller.enqueue(value);
      end();
      controller.close();
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}
