/**
 * A server-sent-events response from an async iterable of JSON payloads:
 * `data: <json>` frames, then `data: [DONE]` unless the stream ended on an
 * error. Cancelling (client gone) calls `onCancel` at once (a pending read
 * may wait on the provider) and then ends the iterable.
 */
export function sseResponse(
  events: AsyncIterable<{ data: unknown; final?: boolean }>,
  { onCancel, headers = {} }: { onCancel?: () => void; headers?: Record<string, string> } = {},
): Response {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) {
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
          closed = true;
          return;
        }
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(value.data)}\n\n`));
        if (value.final) {
          controller.close();
          closed = true;
          await iterator.return?.();
        }
      } catch (error) {
        closed = true;
        controller.error(error);
      }
    },
    async cancel() {
      if (closed) return;
      closed = true;
      onCancel?.();
      await iterator.return?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no",
      ...headers,
    },
  });
}
