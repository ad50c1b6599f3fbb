import type { CallToolResult } from "@modelcontextprotocol/server";
import { type DocentError, toDocentError, waitSeconds } from "../core/errors.ts";
import { HTTP_STATUS } from "../http/error-response.ts";
import type { Logger } from "../logging/logger.ts";

/** What a model can do next, by the reason a call failed: the only help it gets is the text. */
const NEXT_STEP: Record<string, string> = {
  source_not_found: "Call list_sources for the source ids you can use.",
  page_not_found: "Use a page URL that search_docs or ask_docs returned.",
};

/**
 * The one place a DocentError becomes an MCP tool error: a result with
 * `isError: true` the model reads and can recover from. Unexpected failures
 * stay opaque (toDocentError masks them), as on every other interface.
 */
export function toolError(error: unknown, logger: Logger, tool: string): CallToolResult {
  const docent = toDocentError(error);
  if (docent.code === "INTERNAL_SERVER_ERROR") logger.error({ err: docent.cause ?? error, interface: "mcp", tool }, "unexpected error");
  const hint = docent.reason ? NEXT_STEP[docent.reason] : undefined;
  const retry = docent.retryAfter !== null ? ` Retry after ${waitSeconds(docent)} s.` : "";
  return { content: [{ type: "text", text: `${docent.message}${hint ? ` ${hint}` : ""}${retry}` }], isError: true };
}

/**
 * A refusal before any MCP work (401 no or bad key, 429 over the key's
 * limits, 413 or 400 for a body too large or too deep): the HTTP status a
 * client acts on, with a JSON-RPC error body as the transport's own refusals
 * have, and REST's Retry-After and challenge.
 */
export function refusalResponse(error: DocentError): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (error.code === "UNAUTHORIZED") headers["www-authenticate"] = 'Bearer realm="docent"';
  if (error.retryAfter !== null) headers["retry-after"] = String(waitSeconds(error));
  const body = { jsonrpc: "2.0", id: null, error: { code: -32000, message: error.message, data: { code: error.code, reason: error.reason } } };
  return new Response(JSON.stringify(body), { status: HTTP_STATUS[error.code], headers });
}
