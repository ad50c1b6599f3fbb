import type { MiddlewareHandler } from "hono";
import type { Lease, RateLimiter } from "../core/rate-limiter.ts";
import type { AuthEnv } from "./auth.ts";

/**
 * The per-key rate limit and concurrency cap, after `requireApiKey`: one
 * lease per request, held until its response has ended. Over a limit the
 * limiter throws TOO_MANY_REQUESTS, which the error mapping sends as 429 with
 * `Retry-After`.
 */
export function limitRate(limiter: RateLimiter): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const lease = await limiter.acquire(c.get("apiKey").id);
    try {
      await next();
    } catch (error) {
      await lease.release();
      throw error;
    }
    // A JSON reply is complete when the handler returns; an event stream has only begun.
    if (c.res.headers.get("content-type")?.startsWith("text/event-stream")) c.res = holdUntilBodyEnds(c.res, lease);
    else await lease.release();
  };
}

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
