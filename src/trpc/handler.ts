import { getTRPCErrorShape } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { Admission } from "../auth/admit.ts";
import { DocentError, waitSeconds } from "../core/errors.ts";
import { createContextInner, type TrpcServices } from "./context.ts";
import { appRouter } from "./router.ts";
import { toTRPCError } from "./trpc.ts";

/** A batch of calls is one request's work: 16 at most (a client's httpBatchLink maxItems may say the same). */
const MAX_BATCH_SIZE = 16;

/** tRPC over fetch at /trpc: batching for queries and mutations, SSE for subscriptions. */
export function createTrpcHandler(services: TrpcServices) {
  return async (request: Request, admission: Admission) =>
    jsonTyped(
      await fetchRequestHandler({
        endpoint: "/trpc",
        req: request,
        router: appRouter,
        maxBatchSize: MAX_BATCH_SIZE,
        createContext: () => createContextInner(services, admission),
        // A call refused for a while (a provider's 503, a limit) says how long, as REST and GraphQL do.
        responseMeta: ({ errors }) => {
          const wait = longestWait(errors.map((e) => (e.cause instanceof DocentError ? waitSeconds(e.cause) : null)));
          return wait === null ? {} : { headers: { "retry-after": wait } };
        },
        onError: ({ error, path }) => {
          if (error.code !== "INTERNAL_SERVER_ERROR") return;
          if (services.logger) services.logger.error({ err: error.cause ?? error, interface: "trpc", procedure: path ?? null }, "unexpected error");
          else console.error(`trpc: ${path ?? "?"}: ${error.cause?.stack ?? error.stack}`);
        },
      }),
    );
}

/**
 * tRPC's adapter answers some refusals (an unsupported content type, a batch
 * over maxBatchSize) with its JSON error shape and no content type, sent as
 * text/plain: label them as what they are, so clients that go by the header
 * read the error.
 */
async function jsonTyped(response: Response): Promise<Response> {
  // Unlabelled, a string body goes out as text/plain.
  const type = response.headers.get("content-type");
  if (response.status < 400 || (type !== null && !type.startsWith("text/plain"))) return response;
  const text = await response.text();
  const headers = new Headers(response.headers);
  try {
    JSON.parse(text);
    headers.set("content-type", "application/json");
  } catch {
    // Plain text after all: left as it is.
  }
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}

/**
 * A refusal in tRPC's error shape for each call of `url` (an array for a
 * batch), made without the adapter: asked for a subscription, the adapter
 * answers 200 and streams the error, whatever the refusal's status.
 */
export function trpcErrorResponse(error: DocentError, url: string): Response {
  const trpcError = toTRPCError(error);
  const shapeFor = (path: string) => ({
    error: getTRPCErrorShape({ config: appRouter._def._config, error: trpcError, type: "unknown", path, input: undefined, ctx: undefined }),
  });
  const paths = trpcPaths(url);
  // One shape per call of a batch the adapter would take; past that, one (the adapter refuses such a batch whole).
  const batch = new URL(url).searchParams.get("batch") === "1" && paths.length <= MAX_BATCH_SIZE;
  const body = batch ? paths.map(shapeFor) : shapeFor(paths.length <= MAX_BATCH_SIZE ? paths.join(",") : "");
  const wait = longestWait([waitSeconds(error)]);
  return Response.json(body, { status: getHTTPStatusCodeFromError(trpcError), headers: wait === null ? {} : { "retry-after": wait } });
}

/** `Retry-After` for the longest of the calls' waits (whole seconds), null when none asked one. */
function longestWait(waits: Array<number | null>): string | null {
  const known = waits.filter((w): w is number => w !== null);
  return known.length ? String(Math.max(...known)) : null;
}

/** The procedure paths a tRPC URL calls, as tRPC's fetch adapter splits its path decoded whole (so `%2C` separates calls too). */
export function trpcPaths(url: string): string[] {
  const path = new URL(url).pathname.slice("/trpc/".length);
  try {
    return decodeURIComponent(path).split(",");
  } catch {
    return [path];
  }
}
