import { randomUUID } from "node:crypto";
import { useGraphQLSSE } from "@graphql-yoga/plugin-graphql-sse";
import { createYoga } from "graphql-yoga";
import type { AppServices } from "../app-services.ts";
import { DocentError, toDocentError } from "../core/errors.ts";
import type { ApiKeyInfo } from "../core/key-store.ts";
import { authenticate } from "../http/auth.ts";
import { requestLimits } from "./request-limits.ts";
import type { GraphQLContext } from "./context.ts";
import { maskError, toGraphQLError } from "./errors.ts";
import { schema } from "./schema/index.ts";

const STREAM_TOKEN_HEADER = "x-graphql-event-stream-token";
const MAX_RESERVATIONS = 10_000;

/**
 * GraphQL at /graphql (queries, mutations, and subscriptions over Yoga's SSE,
 * which is graphql-sse's distinct-connections mode) and graphql-sse's
 * single-connection mode at /graphql/stream. Same Bearer keys as REST; in
 * single-connection mode the key is checked on the reservation request and
 * the stream token then stands for it.
 */
export function createGraphQLHandler(services: Pick<AppServices, "catalog" | "models" | "engine" | "keys">) {
  const reservations = new Map<string, ApiKeyInfo>();

  const keyFor = async (request: Request): Promise<ApiKeyInfo> => {
    const token = request.headers.get(STREAM_TOKEN_HEADER) ?? new URL(request.url).searchParams.get("token");
    const reserved = token ? reservations.get(token) : undefined;
    if (reserved) return reserved;
    try {
      return await authenticate(services.keys, request.headers.get("authorization"));
    } catch (error) {
      throw toGraphQLError(toDocentError(error));
    }
  };

  return createYoga<{}, GraphQLContext>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    // Expected errors are the client's business; unexpected ones are logged by maskError.
    logging: false,
    maskedErrors: { maskError },
    context: async ({ request }) => ({ services, request, apiKey: await keyFor(request) }),
    plugins: [
      requestLimits(),
      useGraphQLSSE({
        endpoint: "/graphql/stream",
        async authenticate(req) {
          const token = req.headers.get(STREAM_TOKEN_HEADER) ?? new URL(req.url, "http://localhost").searchParams.get("token");
          if (token) return token;
          let key: ApiKeyInfo;
          try {
            key = await authenticate(services.keys, req.headers.get("authorization"));
          } catch (error) {
            const e = error instanceof DocentError ? error : toDocentError(error);
            return [JSON.stringify({ errors: [{ message: e.message, extensions: { code: "UNAUTHENTICATED" } }] }), { status: 401, statusText: "Unauthorized", headers: { "content-type": "application/json" } }];
          }
          const fresh = randomUUID();
          if (reservations.size >= MAX_RESERVATIONS) reservations.delete(reservations.keys().next().value!);
          reservations.set(fresh, key);
          return fresh;
        },
      }),
    ],
  });
}
