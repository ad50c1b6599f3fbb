import { McpServer } from "@modelcontextprotocol/server";
import { registerAskDocs } from "./tools/ask-docs.ts";
import { registerGetPage } from "./tools/get-page.ts";
import { registerListSources } from "./tools/list-sources.ts";
import { registerSearchDocs } from "./tools/search-docs.ts";
import type { ToolContext } from "./tools/tool-context.ts";

/** What a client shows the model about the server as a whole (the tools describe themselves). */
const INSTRUCTIONS =
  "docent serves curated product documentation. search_docs finds the passages about a question (best first, with URLs to their sections), " +
  "get_page reads a whole page, list_sources shows which documentation sets you can use, and ask_docs writes a short answer with citations.";

/** One MCP server for one request, built around its admitted caller: the endpoint keeps nothing between requests. */
export function createDocentMcpServer(context: ToolContext): McpServer {
  // Stateless: no list-changed notification can ever be sent, so none is promised (the SDK's default would have every
  // modern client hold a subscription stream open, each one of its key's concurrent requests, for nothing).
  const server = new McpServer(
    { name: "docent", title: "docent documentation", version: "1" },
    { instructions: INSTRUCTIONS, capabilities: { tools: { listChanged: false } } },
  );
  for (const register of [registerSearchDocs, registerGetPage, registerListSources, registerAskDocs]) register(server, context);
  return server;
}
