import parser from "robots-parser";

// A CommonJS module whose typings declare an ES default export: under Node's ESM interop the function is the module itself.
const robotsParser = parser as unknown as typeof parser.default;

/** robots.txt as the crawler reads it: whether a URL may be fetched, and the sitemaps it names. */
export interface RobotsRules {
  allowed(url: string): boolean;
  sitemaps: string[];
}

/** How much of a robots.txt is read: RFC 9309 asks crawlers to read at least 500 KiB, and lets them stop there. */
export const MAX_ROBOTS_BYTES = 500 * 1024;
/**
 * The most work one check may take, in pattern characters times path characters: a rule with `*` is matched
 * against the path in time proportional to both (robots-parser, like Google's parser), so a hostile file of
 * wildcard rules held the server's thread for seconds a link. Ordinary files use a small part of it; past it the
 * URL is not fetched (never fetching is always polite).
 */
const MAX_CHECK_WORK = 4_000_000;

/**
 * Parses a robots.txt with `robots-parser` (RFC 9309: the group of our
 * product token, else `*`; longest match wins, Allow on a tie; `*` and `$`;
 * non-ASCII paths compared percent-encoded). A URL the file does not govern (another
 * origin) is allowed: the crawl's own scope decides about those. Read up to
 * MAX_ROBOTS_BYTES, a run of `*` read as the one it means, and each check's work bounded (MAX_CHECK_WORK).
 */
export function parseRobots(robotsUrl: string, text: string, userAgent: string): RobotsRules {
  const collapsed = text.replace(/\*{2,}/g, "*");
  const read = collapsed.length > MAX_ROBOTS_BYTES ? collapsed.slice(0, collapsed.lastIndexOf("\n", MAX_ROBOTS_BYTES) + 1) : collapsed;
  // Per path character: each wildcard rule's length, and every other rule's once (a literal prefix is compared once).
  let wild = 0;
  let literal = 0;
  for (const [, rule = ""] of read.matchAll(/^\s*(?:dis)?allow\s*:([^#\n]*)/gim)) {
    if (rule.includes("*")) wild += rule.trim().length;
    else literal += rule.trim().length;
  }
  const robots = robotsParser(robotsUrl, read);
  return {
    sitemaps: robots.getSitemaps(),
    allowed: (url) => wild * url.length + literal <= MAX_CHECK_WORK && (robots.isAllowed(url, userAgent) ?? true),
  };
}
