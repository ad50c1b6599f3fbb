import { GraphQLError } from "graphql";
import { createGraphQLError, maskError as yogaMaskError } from "graphql-yoga";
import { DocentError, type ErrorCode, waitSeconds } from "../core/errors.ts";
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
      // Seconds to wait before trying again (a provider's 503, a limit): the header's figure, since an execution error's response is a 200.
      ...(error.retryAfter !== null && { retryAfter: waitSeconds(error) }),
      ...((error.code === "UNAUTHORIZED" || error.code === "TOO_MANY_REQUESTS") && {
        http: {
          status: HTTP_STATUS[error.code],
          ...(error.retryAfter !== null && { headers: { "retry-after": String(waitSeconds(error)) } }),
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
  if (isClientMistake(error)) return yogaMaskError(asClientError(error), message, isDev);
  logError(original);
  return yogaMaskError(error, message, isDev);
}

/** An error graphql-js or Yoga raised about the request itself (a parse or validation error, a bad variable), not one thrown by docent's code. */
const isClientMistake = (error: unknown): error is GraphQLError =>
  error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError);

/**
 * A client's mistake as the client sees it: with a code (graphql-js gives a
 * variable it cannot coerce none), and without the `originalError` Yoga adds
 * to a body it cannot parse (the JSON parser's own error name and message).
 * Yoga reads that field's presence as "answer 400 even to application/json":
 * its status is kept by dropping `spec` from the error's `http` extension.
 */
function asClientError(error: GraphQLError): GraphQLError {
  const { originalError, ...extensions } = error.extensions;
  if (originalError === undefined && typeof extensions.code === "string") return error;
  const http = extensions.http as { spec?: boolean } | undefined;
  if (originalError !== undefined && http?.spec) {
    const { spec: _, ...status } = http;
    extensions.http = status;
  }
  const param = variableParam(error.message);
  return createGraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...extensions, code: typeof extensions.code === "string" ? extensions.code : "BAD_USER_INPUT", ...(param && { param }) },
  });
}

/**
 * The parameter a variable graphql-js could not coerce names, in the form docent's own errors give it
 * (`messages[0].role`; the variable's name for a whole variable): graphql-js says it only in its message
 * (`Variable "$input" got invalid value 5 at "input.messages[0].role"; …`, `…; Field "model" of required type …`).
 * The value it echoes is JSON (its strings escaped), so the path is read where the variable's own name is quoted.
 */
export function variableParam(message: string): string | null {
  const name = /^Variable "\$(\w+)" /.exec(message)?.[1];
  if (!name) return null;
  if (!message.startsWith(`Variable "$${name}" got invalid value `)) return name;
  const at = new RegExp(` at "${name}((?:\\.\\w+|\\[\\d+\\])*)"; `).exec(message);
  const reason = message.slice(at ? at.index + at[0].length : message.lastIndexOf("; ") + 2);
  const field = /^Field "([^"]+)" (?:of required type|is not defined by type)/.exec(reason)?.[1];
  const param = `${at?.[1] ?? ""}${field ? `.${field}` : ""}`.replace(/^\./, "");
  return param || name;
}

/** Codes for the errors graphql-sse answers itself (with a message and no code, or no body at all). */
const STREAM_ERROR: Record<number, { code: string; message: string }> = {
  400: { code: "BAD_REQUEST", message: "The request is not a valid GraphQL request." },
  404: { code: "NOT_FOUND", message: "No such stream: ask for text/event-stream, or reserve a stream with PUT and send its token." },
  405: { code: "METHOD_NOT_ALLOWED", message: "This method is not allowed here." },
  406: { code: "NOT_ACCEPTABLE", message: "Ask for text/event-stream (a stream) or text/plain (a reservation's token)." },
  409: { code: "CONFLICT", message: "The stream is already reserved or open." },
  415: { code: "UNSUPPORTED_MEDIA_TYPE", message: "GraphQL requests are sent as application/json." },
};

/**
 * graphql-sse's own error responses in the shape of every other GraphQL error:
 * each error with an `extensions.code`, and a message where it sent no body.
 */
export async function withErrorCodes(response: Response): Promise<Response> {
  const known = STREAM_ERROR[response.status];
  if (response.status < 400 || !known) return response;
  const text = await response.text();
  let errors: { message?: unknown; extensions?: Record<string, unknown> }[] = [{ message: known.message }];
  try {
    const parsed = text ? JSON.parse(text) : null;
    if (Array.isArray(parsed?.errors) && parsed.errors.length > 0) errors = parsed.errors;
  } catch {}
  const body = { errors: errors.map((e) => ({ ...e, extensions: { ...e.extensions, code: e.extensions?.code ?? known.code } })) };
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: response.status, statusText: response.statusText, headers });
}

/** An error answered before Yoga runs, with the code graphql-sse or Yoga give its status (a malformed request's, BAD_REQUEST). */
export function streamErrorResponse(status: keyof typeof STREAM_ERROR, message: string, param?: string): Response {
  const body = { errors: [{ message, extensions: { code: STREAM_ERROR[status]!.code, ...(param ? { param } : {}) } }] };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}

/** A refusal (401, 429) before Yoga runs, as a GraphQL-over-HTTP error response. */
export function refusalResponse(error: DocentError): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (error.retryAfter !== null) headers["retry-after"] = String(waitSeconds(error));
  const body = { errors: [{ message: error.message, extensions: { code: GRAPHQL_CODE[error.code] ?? error.code, reason: error.reason } }] };
  return new Response(JSON.stringify(body), { status: HTTP_STATUS[error.code], headers });
}

/**
 * A client's mistake thrown out of Yoga rather than answered: graphql-sse
 * parses a document sent into a stream with nothing to catch what the parser
 * throws (a syntax error, a refused shape), so it reached the app as a 500
 * logged with its stack. As a GraphQL error response (400, or the status the
 * error asks for); null for anything else, which stays unexpected.
 */
export function thrownClientError(error: unknown): Response | null {
  if (!isClientMistake(error)) return null;
  const http = error.extensions.http as { status?: number } | undefined;
  const status = http?.status && http.status >= 400 && http.status < 500 ? http.status : 400;
  const body = {
    errors: [{ message: error.message, extensions: { code: typeof error.extensions.code === "string" ? error.extensions.code : "BAD_USER_INPUT" } }],
  };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}
