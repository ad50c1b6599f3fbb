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
  const { wild, literal } = ruleWork(read, userAgent);
  const robots = robotsParser(robotsUrl, read);
  const pathLength = (url: string) => {
    const u = new URL(url);
    return u.pathname.length + u.search.length;
  };
  return {
    sitemaps: robots.getSitemaps(),
    allowed: (url) => wild * pathLength(url) + literal <= MAX_CHECK_WORK && (robots.isAllowed(url, userAgent) ?? true),
  };
}

/**
 * The work of checking a path against the rules that apply to us (the groups naming our product token, else
 * those of `*`, as robots-parser picks them), per path character: each wildcard rule's length; and every
 * other rule's once (a literal prefix is compared once).
 */
function ruleWork(text: string, userAgent: string): { wild: number; literal: number } {
  const token = userAgent.split("/")[0]!.toLowerCase();
  const work = { ours: { wild: 0, literal: 0 }, any: { wild: 0, literal: 0 } };
  let agents: string[] = [];
  let inRules = false;
  for (const line of text.split("\n")) {
    const [, field = "", value = ""] = /^\s*([A-Za-z-]+)\s*:([^#]*)/.exec(line) ?? [];
    const name = field.toLowerCase();
    if (name === "user-agent") {
      // Consecutive user-agent lines name one group; one after rules starts the next.
      if (inRules) agents = [];
      inRules = false;
      agents.push(value.trim().toLowerCase());
    } else if (name === "allow" || name === "disallow") {
      inRules = true;
      const rule = value.trim();
      const kind = rule.includes("*") ? "wild" : "literal";
      if (agents.some((agent) => agent && token.startsWith(agent.split("/")[0]!) && agent !== "*")) work.ours[kind] += rule.length;
      if (agents.includes("*")) work.any[kind] += rule.length;
    }
  }
  return work.ours.wild + work.ours.literal > 0 ? work.ours : work.any;
}
