import { GraphQLError } from "graphql";
import { createGraphQLError, maskError as yogaMaskError } from "graphql-yoga";
import { DocentError, type ErrorCode } from "../core/errors.ts";
import { HTTP_STATUS } from "../http/error-response.ts";

/** Our error codes in GraphQL's customary `extensions.code` vocabulary. */
const GRAPHQL_CODE: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST: "BAD_USER_INPUT",
  UNAUTHORIZED: "UNAUTHENTICATED",
};

export function toGraphQLError(error: DocentError): GraphQLError {
  return createGraphQLError(error.message, {
    originalError: error,
    extensions: {
      code: GRAPHQL_CODE[error.code] ?? error.code,
      param: error.param,
      reason: error.reason,
      retryable: error.retryable,
      ...((error.code === "UNAUTHORIZED" || error.code === "TOO_MANY_REQUESTS") && {
        http: {
          status: HTTP_STATUS[error.code],
          ...(error.retryAfter !== null && { headers: { "retry-after": String(Math.max(1, Math.ceil(error.retryAfter))) } }),
        },
      }),
    },
  });
}

/**
 * Yoga's error mask: DocentErrors pass with their code; a client's mistake
 * that graphql-js or Yoga reported (a parse or validation error, a variable of
 * the wrong type, a batch) passes as it is, unlogged; anything else is logged
 * and stays masked. Logging client mistakes as unexpected let any key holder
 * fill the error log with stack traces.
 */
export function maskError(
  error: unknown,
  message: string,
  isDev?: boolean,
  logError: (error: unknown) => void = (e) => console.error(`graphql: unexpected error: ${(e as Error)?.stack ?? e}`),
): Error {
  const original = (error as { originalError?: unknown }).originalError ?? error;
  const docent = original instanceof DocentError ? original : (original as { originalError?: unknown })?.originalError;
  if (docent instanceof DocentError && docent.code !== "INTERNAL_SERVER_ERROR") return toGraphQLError(docent);
  if ((error as { extensions?: { code?: string } }).extensions?.code === "UNAUTHENTICATED") return error as Error;
  if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) return yogaMaskError(error, message, isDev);
  logError(original);
  return yogaMaskError(error, message, isDev);
}

/** A refusal (401, 429) before Yoga runs, as a GraphQL-over-HTTP error response. */
export function refusalResponse(error: DocentError): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (error.retryAfter !== null) headers["retry-after"] = String(Math.max(1, Math.ceil(error.retryAfter)));
  const body = { errors: [{ message: error.message, extensions: { code: GRAPHQL_CODE[error.code] ?? error.code, reason: error.reason } }] };
  return new Response(JSON.stringify(body), { status: HTTP_STATUS[error.code], headers });
}
