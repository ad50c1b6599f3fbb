/**
 * One error hierarchy for the whole service. Each interface maps it in one
 * place (REST: src/http/error-response.ts). Codes reuse tRPC's names.
 */
export type ErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "TOO_MANY_REQUESTS"
  | "CLIENT_CLOSED_REQUEST"
  | "INTERNAL_SERVER_ERROR"
  | "BAD_GATEWAY"
  | "SERVICE_UNAVAILABLE"
  | "GATEWAY_TIMEOUT";

export interface DocentErrorOptions {
  /** The request field at fault, in OpenAI's `param` form (`messages[1].role`). */
  param?: string | null;
  /** A short machine-readable reason (`model_not_found`, `invalid_api_key`…). */
  reason?: string | null;
  /** True when the same request may succeed later (rate limits, 5xx upstream). */
  retryable?: boolean;
  /** Seconds after which a retry may succeed (rate limits, upstream Retry-After); sent as `Retry-After`. */
  retryAfter?: number | null;
  cause?: unknown;
}

export class DocentError extends Error {
  readonly code: ErrorCode;
  readonly param: string | null;
  readonly reason: string | null;
  readonly retryable: boolean;
  readonly retryAfter: number | null;

  constructor(code: ErrorCode, message: string, options: DocentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DocentError";
    this.code = code;
    this.param = options.param ?? null;
    this.reason = options.reason ?? null;
    this.retryable = options.retryable ?? false;
    this.retryAfter = options.retryAfter ?? null;
  }
}

/** The wait an error asks for in whole seconds, at least 1 (`Retry-After`'s form on every interface); null when it asks none. */
export const waitSeconds = (error: Pick<DocentError, "retryAfter">): number | null =>
  error.retryAfter === null ? null : Math.max(1, Math.ceil(error.retryAfter));

export const badRequest = (message: string, param: string | null = null, reason: string | null = "invalid_value") =>
  new DocentError("BAD_REQUEST", message, { param, reason });

export const notFound = (message: string, param: string | null, reason: string) => new DocentError("NOT_FOUND", message, { param, reason });

/** Anything thrown that is not a DocentError becomes an opaque internal error. */
export function toDocentError(error: unknown): DocentError {
  if (error instanceof DocentError) return error;
  if (isAbortError(error)) {
    return new DocentError("CLIENT_CLOSED_REQUEST", "The request was aborted.", { cause: error });
  }
  return new DocentError("INTERNAL_SERVER_ERROR", "The service failed to process the request.", { cause: error });
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "APIUserAbortError");
}
