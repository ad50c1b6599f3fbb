import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, fetch as undiciFetch } from "undici";

export type Lookup = typeof dns.lookup;

/** An address on the public internet: ipaddr.js's `unicast` range (not loopback, private, link-local, CGNAT, reserved…). */
export function isPublicAddress(address: string): boolean {
  try {
    return ipaddr.process(address).range() === "unicast";
  } catch {
    return false;
  }
}

/** A connection refused because its host resolves to an internal address: not retried. */
export class InternalAddress extends Error {
  readonly code = "EINTERNALADDRESS";
}

const refusal = (host: string, address: string) =>
  new InternalAddress(`${host} resolves to ${address}, an internal address, which the crawler does not reach unless CRAWL_ALLOW_INTERNAL=1.`);

/** A URL's hostname without the brackets of an IPv6 literal. */
const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, "");

/**
 * True when a URL's host is written as an internal address: an IP literal in
 * an internal range, or `localhost`. Read from the URL the operator wrote, never
 * from DNS, which the site controls: a public name that resolves to 127.0.0.1
 * when a sync starts does not make the site internal.
 */
export function isInternalHost(hostname: string): boolean {
  const host = bareHost(hostname).toLowerCase();
  if (net.isIP(host)) return !isPublicAddress(host);
  return host === "localhost" || host.endsWith(".localhost");
}

/**
 * fetch for the crawler. Unless the crawl may reach internal addresses (see
 * isInternalHost, CRAWL_ALLOW_INTERNAL), it connects only to public ones,
 * checked on the addresses each connection is made to: a site cannot point its
 * name at 127.0.0.1 or the cloud metadata service (169.254.169.254), before a
 * sync or during one (DNS rebinding).
 */
export function crawlerFetch({ lookup = dns.lookup, allowInternal }: { lookup?: Lookup; allowInternal: boolean }): typeof fetch {
  const guarded = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) =>
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error);
      const addresses = found as dns.LookupAddress[];
      const internal = allowInternal ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (internal || addresses.length === 0) return callback(refusal(hostname, internal?.address ?? "nothing"));
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    })) as unknown as Lookup;
  const agent = new Agent({ connect: { lookup: guarded } });
  return (async (input: string | URL, init?: RequestInit) => {
    const host = bareHost(new URL(String(input)).hostname);
    if (!allowInternal && net.isIP(host) && !isPublicAddress(host)) throw refusal(host, host);
    return undiciFetch(String(input), { ...(init as object), dispatcher: agent });
  }) as unknown as typeof fetch;
}
