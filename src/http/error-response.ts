import { type DocentError, type ErrorCode, waitSeconds } from "../core/errors.ts";

/** The one place DocentErrors become OpenAI-shaped HTTP errors. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  CLIENT_CLOSED_REQUEST: 499,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** OpenAI's error types: a missing or wrong key is an `invalid_request_error` there too (code `invalid_api_key`). */
function errorType(status: number): string {
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

export function errorBody(error: DocentError): OpenAIErrorBody {
  const status = HTTP_STATUS[error.code];
  return { error: { message: error.message, type: errorType(status), param: error.param, code: error.reason ?? error.code.toLowerCase() } };
}

export function errorResponse(error: DocentError): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (error.code === "UNAUTHORIZED") headers["www-authenticate"] = 'Bearer realm="docent"';
  if (error.retryAfter !== null) headers["retry-after"] = String(waitSeconds(error));
  return new Response(JSON.stringify(errorBody(error)), { status: HTTP_STATUS[error.code], headers });
}
