import type { Context } from "hono";
import { badRequest } from "../core/errors.ts";

/** The request's JSON body (read once, after limitBody checked its size and shape); 400 `invalid_json` when it is not JSON. */
export async function jsonBody(c: Context): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text());
  } catch {
    throw badRequest("The request body is not valid JSON.", null, "invalid_json");
  }
}
