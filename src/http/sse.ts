/**
 * A server-sent-events response from an async iterable of JSON payloads:
 * `data: <json>` frames (`event: <name>` first when the payload is named),
 * then `data: [DONE]` unless the stream ended on an error or `doneMarker` is
 * false (the Responses API has none). Cancelling (client gone) calls
 * `onCancel` at once (a pending read may wait on the provider) and then ends
 * the iterable.
 */
export function sseResponse(
  events: AsyncIterable<{ data: unknown; event?: string; final?: boolean }>,
  { onCancel, headers = {}, doneMarker = true }: { onCancel?: () => void; headers?: Record<string, string>; doneMarker?: boolean } = {},
): Response {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) {
          if (doneMarker) controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
          closed = true;
          return;
        }
        const name = value.event ? `event: ${value.event}\n` : "";
        controller.enqueue(encoder.encode(`${name}data: ${JSON.stringify(value.data)}\n\n`));
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
      // Said outright, so @hono/node-server writes the first event at once: a stream without it is read
      // ahead for a content length, and a second event not ready yet costs a timer turn (≥ 1 ms).
      "transfer-encoding": "chunked",
      ...headers,
    },
  });
}
