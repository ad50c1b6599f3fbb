import type { Lease } from "../core/rate-limiter.ts";

/**
 * The same response, its lease released when the body has been read to the
 * end, fails, or is cancelled (the client went away). Works on any fetch
 * Response, such as GraphQL's or tRPC's event streams.
 */
export function holdUntilBodyEnds(response: Response, lease: Lease): Response {
  if (!response.body) {
    void lease.release();
    return response;
  }
  const reader = response.body.getReader();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        // Cancelled while reading: this stream is closed already, and cancel() has released.
        if (cancelled) return;
        if (!done) return controller.enqueue(value);
        // Released before the last bytes go out: a client that has seen the end may start its next request at once.
        await lease.release();
        controller.close();
      } catch (error) {
        await lease.release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      cancelled = true;
      await Promise.all([lease.release(), reader.cancel(reason)]);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
