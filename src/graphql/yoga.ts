import { useGraphQLSSE } from "@graphql-yoga/plugin-graphql-sse";
import { createYoga } from "graphql-yoga";
import type { Admission } from "../auth/admit.ts";
import { authenticate } from "../auth/authenticate.ts";
import type { StreamTokens } from "../auth/stream-tokens.ts";
import { DocentError } from "../core/errors.ts";
import type { KeyStore } from "../core/key-store.ts";
import type { GraphQLContext, GraphQLServices } from "./context.ts";
import { maskError, toGraphQLError } from "./errors.ts";
import { requestLimits } from "./request-limits.ts";
import { schema } from "./schema/index.ts";
import type { StreamBacklogs } from "./stream-backlog.ts";
import { streamOperationLease } from "./stream-operation-lease.ts";

export const STREAM_TOKEN_HEADER = "x-graphql-event-stream-token";

/** The stream token a graphql-sse request presents (header, or `?token=` for EventSource). */
export const streamTokenOf = (request: { headers: { get(name: string): string | null | undefined }; url: string }) =>
  request.headers.get(STREAM_TOKEN_HEADER) ?? new URL(request.url, "http://localhost").searchParams.get("token");

/**
 * GraphQL at /graphql (queries, mutations, and subscriptions over Yoga's SSE,
 * which is graphql-sse's distinct-connections mode) and graphql-sse's
 * single-connection mode at /graphql/stream. Requests arrive admitted
 * (http/admission.ts); a refusal is raised here as a GraphQL error. In
 * single-connection mode the reservation is made with the key and the token
 * it returns stands for that key id (see auth/stream-tokens.ts).
 */
export function createGraphQLHandler(services: GraphQLServices & { keys: KeyStore }, tokens: StreamTokens, backlogs: StreamBacklogs) {
  const yoga = createYoga<{ admission: Admission }, GraphQLContext>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    // No GraphiQL: its page loads scripts from a CDN on this origin, where the playground keeps a key in localStorage.
    graphiql: false,
    // Cross-origin access is CORS_ORIGINS's business (http/cors.ts), not Yoga's allow-every-origin default.
    cors: false,
    // Expected errors are the client's business; unexpected ones are logged by maskError.
    logging: false,
    maskedErrors: {
      maskError: (error, message, isDev) =>
        maskError(error, message, isDev, services.logger && ((e) => services.logger!.error({ err: e, interface: "graphql" }, "unexpected error"))),
    },
    context: ({ request, admission }) => {
      if ("error" in admission) throw toGraphQLError(admission.error);
      return { services, request, caller: admission.caller };
    },
    plugins: [
      requestLimits(),
      // Sent by POST or by GET (graphql-sse takes both); the stream's own GET runs no operation.
      streamOperationLease((request) => new URL(request.url).pathname === "/graphql/stream" && streamTokenOf(request) !== null),
      useGraphQLSSE({
        endpoint: "/graphql/stream",
        async authenticate(req) {
          // The token was checked (and its key re-checked) by the admission before Yoga saw the request.
          const token = streamTokenOf(req);
          if (token && req.method !== "PUT") return token;
          // A reservation always gets a new token, never one the request brings: graphql-sse's client sends its
          // last token again when it reserves anew (after a restart, or once it lapsed), and graphql-sse would
          // keep a stream under whatever token it is given. A known token reserves for its own key.
          const keyId = (token && tokens.use(token)) ?? (await authenticate(services.keys, req.headers.get("authorization"))).id;
          return tokens.issue(keyId);
        },
        // What each result adds to its stream's backlog (graphql-sse sends it as this JSON, framed).
        onNext(_ctx, req, result) {
          const token = streamTokenOf(req);
          if (token !== null && backlogs.watching(token)) backlogs.queued(token, Buffer.byteLength(JSON.stringify(result)));
        },
      }),
    ],
  });
  return (request: Request, admission: Admission) => yoga.fetch(request, { admission });
}

export type GraphQLHandler = ReturnType<typeof createGraphQLHandler>;

/**
 * graphql-sse keeps a reserved stream until it is opened, with no expiry:
 * opening it and closing it at once lets it go (a stream opened before was let
 * go when it closed, and this finds nothing). For a token given up unopened.
 */
export async function releaseReservation(graphql: GraphQLHandler, token: string) {
  const request = new Request("http://localhost/graphql/stream", { headers: { accept: "text/event-stream", [STREAM_TOKEN_HEADER]: token } });
  const response = await graphql(request, { error: new DocentError("UNAUTHORIZED", "The reservation was given up.") });
  await response.body?.cancel();
}
