/**
 * The same response; `done` runs once its body has been read to the end,
 * failed, or been cancelled (the client went away) — after the cancellation
 * has reached the producer, so what it did on the way out (an abandoned
 * completion's outcome) is known by then.
 */
export function afterBody(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    done();
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: ended } = await reader.read();
        if (!ended) return controller.enqueue(value);
        controller.close();
        once();
      } catch (error) {
        controller.error(error);
        once();
      }
    },
    async cancel(reason) {
      try {
        await reader.cancel(reason);
      } finally {
        // A producer may finish its own clean-up a turn later (GraphQL's and tRPC's streams).
        setImmediate(once);
      }
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
