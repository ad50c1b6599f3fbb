import type { McpServer } from "@modelcontextprotocol/server";
import type { AppServices } from "../../app-services.ts";
import type { Caller } from "../../auth/admit.ts";

/** What a tool works with: the core's engine and resources, and the admitted caller whose scope limits every tool. */
export interface ToolContext {
  services: Pick<AppServices, "engine" | "resources" | "logger">;
  caller: Caller;
}

export type RegisterTool = (server: McpServer, context: ToolContext) => void;

/** Every tool only reads the documentation: the same call gives the same result, and nothing outside docent is touched. */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
