import { type AuthInfo, createMcpHandler } from "@modelcontextprotocol/server";
import { Hono } from "hono";
import type { AdmitDeps, Caller } from "../auth/admit.ts";
import { toDocentError } from "../core/errors.ts";
import type { Lease } from "../core/rate-limiter.ts";
import { type AdmissionEnv, acquireMore, admission, callerOf as admittedCaller, releasedWith } from "../http/admission.ts";
import { limitBody } from "../http/body-limit.ts";
import { refusalResponse } from "./mcp-errors.ts";
import { createDocentMcpServer } from "./mcp-server.ts";
import { mcpRequestGuards } from "./request-guards.ts";
import type { ToolContext } from "./tools/tool-context.ts";

export interface McpDeps extends AdmitDeps {
  services: ToolContext["services"];
  maxBodyBytes: number;
  /** For the Host/Origin guards: the bind address, PUBLIC_URL and CORS_ORIGINS. */
  guards: Parameters<typeof mcpRequestGuards>[0];
}

// The SDK hands the factory what the route passes as `authInfo`, untouched: the admitted caller rides in `extra`.
const authInfoOf = (caller: Caller): AuthInfo => ({ token: caller.key.prefix, clientId: caller.key.id, scopes: [], extra: { caller } });
function callerOf(authInfo: AuthInfo | undefined): Caller {
  const caller = authInfo?.extra?.caller as Caller | undefined;
  if (!caller) throw new Error("an MCP server was built for a request that was not admitted");
  return caller;
}

/**
 * The MCP endpoint, mounted at /mcp: Streamable HTTP, stateless (a fresh
 * server per request, built for its caller; the SDK's handler also serves
 * 2025-era clients statelessly and answers their GET/DELETE session calls 405).
 * The key, its scope and its limits are checked by the same admission as
 * every other door; a refusal is answered before any MCP work.
 */
export function mcpRoutes({ services, maxBodyBytes, guards, ...admitDeps }: McpDeps) {
  const handler = createMcpHandler(({ authInfo }) => createDocentMcpServer({ services, caller: callerOf(authInfo) }), { maxRequestBodySize: maxBodyBytes });
  const app = new Hono<AdmissionEnv>();
  for (const guard of mcpRequestGuards(guards)) app.use("/", guard);
  app.use("/", admission(admitDeps, { refuse: refusalResponse }));
  app.all("/", limitBody(maxBodyBytes, { refuse: refusalResponse }), async (c) => {
    const caller = admittedCaller(c.get("admission"));
    // A JSON-RPC batch counts each of its requests against the key's limits: a batch of 100 tools/list
    // (each ~6 ms, an 870 KB reply in all) counted as one request let one key hold the event loop.
    let more: Lease;
    try {
      more = await acquireMore(admitDeps.limiter, caller, requestsIn(await c.req.text()));
    } catch (error) {
      return refusalResponse(toDocentError(error));
    }
    return releasedWith(c.req.raw, await handler.fetch(c.req.raw, { authInfo: authInfoOf(caller) }), more);
  });
  return app;
}

/** How many requests a body carries: each message of a batch that names a method (1 for anything else). */
function requestsIn(body: string): number {
  if (!body.trimStart().startsWith("[")) return 1;
  try {
    const batch: unknown = JSON.parse(body);
    if (!Array.isArray(batch)) return 1;
    return Math.max(1, batch.filter((message) => typeof (message as { method?: unknown } | null)?.method === "string").length);
  } catch {
    return 1;
  }
}
