import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { Admission } from "../http/admission.ts";
import { createContextInner, type TrpcServices } from "./context.ts";
import { appRouter } from "./router.ts";

/** tRPC over fetch at /trpc: batching for queries and mutations, SSE for subscriptions. */
export function createTrpcHandler(services: TrpcServices) {
  return (request: Request, admission: Admission) =>
    fetchRequestHandler({
      endpoint: "/trpc",
      req: request,
      router: appRouter,
      // A batch of calls is one request's work: 16 at most (a client's httpBatchLink maxItems may say the same).
      maxBatchSize: 16,
      createContext: () => createContextInner(services, admission),
      onError: ({ error, path }) => {
        if (error.code !== "INTERNAL_SERVER_ERROR") return;
        if (services.logger) services.logger.error({ err: error.cause ?? error, interface: "trpc", procedure: path ?? null }, "unexpected error");
        else console.error(`trpc: ${path ?? "?"}: ${error.cause?.stack ?? error.stack}`);
      },
    });
}
