import type { Context } from "hono";
import { badRequest } from "../core/errors.ts";

/**
 * `include_references` given in the URL (`?include_references=true`), for
 * clients that can add query parameters but not body fields: Codex CLI's
 * provider `query_params`, a proxy's rewrite. The body's own value wins, and
 * a JSON reply takes none (a client-wide setting must not break the JSON a
 * request asked for); a value other than true or false is refused, naming it.
 */
export function includeReferencesQuery(c: Context, { json }: { json: boolean }): boolean | undefined {
  const value = c.req.query("include_references");
  if (value === undefined) return undefined;
  if (value === "true" || value === "1") return json ? undefined : true;
  if (value === "false" || value === "0") return false;
  throw badRequest("The query parameter 'include_references' must be true or false.", "include_references");
}
