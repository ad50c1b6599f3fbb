import type { MiddlewareHandler } from "hono";
import { badRequest } from "../core/errors.ts";
import { errorResponse } from "./error-response.ts";

/**
 * A path or query with broken percent-encoding (`/docs/%E0%A4%A`) is the
 * caller's mistake: answered 400 here, before any route tries to decode it
 * and fails as an internal error.
 */
export const rejectMalformedUrls: MiddlewareHandler = async (c, next) => {
  const { pathname, search } = new URL(c.req.url);
  try {
    decodeURIComponent(pathname + search);
  } catch {
    return errorResponse(badRequest("The request URL holds malformed percent-encoding.", null, "invalid_url"));
  }
  await next();
};
