import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/** The paths other origins may call when CORS_ORIGINS allows them (the API doors, not the playground). */
export const CORS_PATHS = ["/v1/*", "/graphql", "/graphql/*", "/trpc/*", "/mcp", "/mcp/*"];

/**
 * Cross-origin access to the API for the origins in CORS_ORIGINS (`*`: any).
 * Preflights are answered here, before admission, so they need no key; keys
 * travel in the Authorization header, never in cookies, so no credentials
 * mode. Null when no origin is allowed: then no CORS header is ever sent.
 */
export function corsFor(origins: "*" | readonly string[]): MiddlewareHandler | null {
  if (origins !== "*" && origins.length === 0) return null;
  return cors({
    origin: origins === "*" ? "*" : [...origins],
    allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
    // No allowHeaders list: the preflight's requested headers are allowed, so SDK headers (the openai SDK's x-stainless-*) pass.
    exposeHeaders: ["x-docent-model", "x-docent-sources", "x-request-id", "retry-after", "www-authenticate", "mcp-session-id"],
    maxAge: 600,
  });
}
