import { hostHeaderValidation, originValidation } from "@modelcontextprotocol/hono";
import { localhostAllowedHostnames, localhostAllowedOrigins } from "@modelcontextprotocol/server";
import type { MiddlewareHandler } from "hono";
import { hostnameOf } from "../public-url.ts";

const LOOPBACK = ["127.0.0.1", "localhost", "::1"];

/** The host names of the URLs that parse. */
const hostnames = (...urls: (string | undefined)[]) => urls.map(hostnameOf).filter((name): name is string => name !== null);

/**
 * The MCP spec's DNS-rebinding defence, from the SDK's Hono adapter: a
 * browser `Origin` must be loopback, the public URL's host or one CORS_ORIGINS
 * allows (any with `*`); on a loopback bind the `Host` must be loopback or the
 * public URL's host too. Clients outside a browser send no Origin and pass.
 * The Bearer key is the real gate (a rebinding page does not have it); these
 * refuse with 403 before it is checked, as the SDK's own apps do.
 */
export function mcpRequestGuards({
  host,
  publicUrl,
  corsOrigins,
}: {
  host: string;
  publicUrl?: string;
  corsOrigins: "*" | readonly string[];
}): MiddlewareHandler[] {
  const own = hostnames(publicUrl);
  const guards: MiddlewareHandler[] = [];
  if (LOOPBACK.includes(host)) guards.push(hostHeaderValidation([...localhostAllowedHostnames(), ...own]));
  if (corsOrigins !== "*") guards.push(originValidation([...localhostAllowedOrigins(), ...own, ...hostnames(...corsOrigins)]));
  return guards;
}
