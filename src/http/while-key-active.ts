/** How often an open event stream re-checks its key: as soon as a revocation reaches this process's key cache. */
export const KEY_RECHECK_MS = 1_000;

/**
 * An event stream that ends once `stillActive` says no (its key revoked or
 * expired): graphql-sse's single-connection stream is opened once with a
 * token, and without this a revoked key's stream stayed open for as long as
 * its client kept it.
 */
export function whileKeyActive(body: ReadableStream<Uint8Array>, stillActive: () => Promise<boolean>, intervalMs = KEY_RECHECK_MS): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const end = () => {
    ended = true;
    clearInterval(timer);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(async () => {
        if (ended || (await stillActive().catch(() => true))) return;
        end();
        controller.close();
        void reader.cancel().catch(() => {});
      }, intervalMs);
      timer.unref();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (ended) return;
      if (done) {
        end();
        controller.close();
      } else controller.enqueue(value);
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}
