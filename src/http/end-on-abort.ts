/**
 * The same stream, ended when `signal` aborts, with `onEnd` called once
 * however it ends (read to the end, failed, cancelled or aborted). graphql-sse's
 * single-connection stream is opened once with a token and outlives the
 * request's handler: it ends with the key (the admission's key watch, whose
 * signal aborts when the key is revoked or expires).
 */
export function endOnAbort(body: ReadableStream<Uint8Array>, signal: AbortSignal, onEnd: () => void = () => {}): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  let onAbort = () => {};
  /** Ends the stream once: true for the caller that ended it. */
  const end = () => {
    if (ended) return false;
    ended = true;
    signal.removeEventListener("abort", onAbort);
    onEnd();
    return true;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onAbort = () => {
        if (!end()) return;
        controller.close();
        void reader.cancel(signal.reason).catch(() => {});
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        if (end()) controller.error(error);
        return;
      }
      if (ended) return;
      if (!read.done) return controller.enqueue(read.value);
      end();
      controller.close();
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}
