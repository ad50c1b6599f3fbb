import parser from "robots-parser";

// A CommonJS module whose typings declare an ES default export: under Node's ESM interop the function is the module itself.
const robotsParser = parser as unknown as typeof parser.default;

/** robots.txt as the crawler reads it: whether a URL may be fetched, and the sitemaps it names. */
export interface RobotsRules {
  allowed(url: string): boolean;
  sitemaps: string[];
}

/**
 * Parses a robots.txt with `robots-parser` (RFC 9309: the group of our
 * product token, else `*`; longest match wins, Allow on a tie; `*` and `$`;
 * non-ASCII paths compared percent-encoded). A URL the file does not govern (another
 * origin) is allowed: the crawl's own scope decides about those.
 */
export function parseRobots(robotsUrl: string, text: string, userAgent: string): RobotsRules {
  const robots = robotsParser(robotsUrl, text);
  return { sitemaps: robots.getSitemaps(), allowed: (url) => robots.isAllowed(url, userAgent) ?? true };
}
