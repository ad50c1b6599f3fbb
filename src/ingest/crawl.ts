import { badRequest } from "../core/errors.ts";
import type { PageValidator } from "../core/source-sync.ts";
import { crawlerFetch, isInternalHost, type Lookup } from "./address-guard.ts";
import { type CrawlFetchOptions, crawlFetch, USER_AGENT } from "./crawl-fetch.ts";
import { normaliseBaseUrl } from "./ingest-documents.ts";
import { isContentPath, type SourceDocument } from "./list-documents.ts";
import { type PageParser, sharedPageParser } from "./page-parser.ts";
import { parseRobots, type RobotsRules } from "./robots.ts";

export interface CrawlOptions {
  /** Where to start; pages outside its folder are not fetched. */
  url: string;
  sitemap?: string;
  maxPages?: number;
  concurrency?: number;
  retries?: number;
  timeoutMs?: number;
  /** A page, robots.txt or sitemap longer than this (decompressed) is left out (default 10 MB). */
  maxBytes?: number;
  fetch?: typeof fetch;
  /** Resolves host names (default: the system's resolver); tests stand in for DNS with it. */
  lookup?: Lookup;
  /** CRAWL_ALLOW_INTERNAL: names that resolve to internal addresses may be crawled (an intranet's docs). */
  allowInternal?: boolean;
  /**
   * The last sync's validators by page URL: those pages are asked for with
   * If-None-Match / If-Modified-Since, and a 304 yields a `notModified`
   * document (its stored links are followed) instead of downloading it again.
   */
  validators?: ReadonlyMap<string, PageValidator>;
  /** Stamped on the validators of pages downloaded now (see PageValidator.basis). */
  basis?: string;
  /** Reads pages' links (default: the process's parser thread). */
  parser?: PageParser;
  /** Stops the crawl: requests in flight are aborted and the iteration throws. */
  signal?: AbortSignal;
}

/** The media types read as pages (`text/html; charset=utf-8` is text/html; `image/png; x=text/html` is not). */
const PAGE_TYPES = new Set(["text/html", "application/xhtml+xml", "text/markdown", "text/plain"]);
const mediaType = (headers: Headers) => (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
/** Sitemaps read from one sitemap index at most, and in one crawl at most (robots.txt's, indexes' and their children together). */
const MAX_CHILD_SITEMAPS = 50;
const MAX_SITEMAPS = 100;
/** URLs read from one sitemap at most (the sitemaps protocol's own limit). */
const MAX_SITEMAP_URLS = 50_000;
/** A longer URL is not crawled (the sitemaps protocol's limit; a hostile page's 4 KB links cost memory per page and per link). */
const MAX_URL_LENGTH = 2048;
/** Links kept from one page, in characters: enough for a big index page (3,000 links of 80), bounded for a hostile one. */
const MAX_PAGE_LINK_CHARS = 512 * 1024;

/** The headers that ask for a page only if it changed since `known` was stored. */
function conditionalHeaders(known: PageValidator | undefined): Record<string, string> {
  if (!known) return {};
  return { ...(known.etag && { "if-none-match": known.etag }), ...(known.lastModified && { "if-modified-since": known.lastModified }) };
}

/** A URL's path as the page's file name: percent-decoded when that is valid, else as written. */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The folder a URL names: itself when it ends in `/`, without its last segment if
 * that is a file name (`/docs/index.html` → `/docs/`), else itself as a folder
 * (`/guide` → `/guide/`, where servers redirect it).
 */
export function folderOf(url: string): string {
  const u = new URL(url);
  if (/\/[^/]+\.[A-Za-z0-9]+$/.test(u.pathname)) u.pathname = u.pathname.replace(/[^/]+$/, "");
  return normaliseBaseUrl(u.toString());
}

/** A sitemap's URLs, at most MAX_SITEMAP_URLS of them. */
function* locs(xml: string) {
  let read = 0;
  for (const m of xml.matchAll(/<loc>\s*([^<\s]{1,4096})\s*<\/loc>/g)) {
    if (read++ >= MAX_SITEMAP_URLS) return;
    yield m[1]!.replace(/&amp;/g, "&");
  }
}

/**
 * Crawls a documentation site within the start URL's folder: the sitemap's
 * pages when there is one, otherwise the pages reachable by links; robots.txt
 * honoured, a bounded number of requests at once, retries with backoff, and a
 * page limit. Yields documents as they arrive. An unreachable start fails.
 */
export async function* crawl(options: CrawlOptions): AsyncGenerator<SourceDocument> {
  const scope = folderOf(options.url);
  const o: CrawlFetchOptions = {
    retries: options.retries ?? 3,
    timeoutMs: options.timeoutMs ?? 15_000,
    maxBytes: options.maxBytes ?? 10 * 1024 * 1024,
    // Internal addresses only for a site written as one, or when the operator allows them: a public site cannot lead the crawler inside.
    fetch: options.fetch ?? crawlerFetch({ lookup: options.lookup, allowInternal: options.allowInternal === true || isInternalHost(new URL(scope).hostname) }),
    signal: options.signal,
  };
  const validators = options.validators ?? new Map<string, PageValidator>();
  const normalise = (raw: string) => {
    const url = new URL(raw);
    url.hash = "";
    const text = url.toString();
    // The folder named without its slash is the folder's page: one URL for it, so it is fetched once.
    return text === scope.slice(0, -1) ? scope : text;
  };
  const maxPages = options.maxPages ?? 5000;
  const concurrency = options.concurrency ?? 4;
  const parser = options.parser ?? sharedPageParser();
  const inScope = (url: string) => url.startsWith(scope);
  const relPath = (url: string) => decoded(url.slice(scope.length)) || "index.html";
  // The site: its host with or without `www.`, over http or https. robots.txt and sitemaps are read from it
  // only, and their redirects never leave it (apex → www and http → https are the usual ones).
  const siteOf = (url: string) => {
    const u = new URL(url);
    return `${u.hostname.replace(/^www\./, "")}:${u.port}`;
  };
  const sameSite = (url: string, of = scope) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol) && siteOf(url) === siteOf(of);
  // A page of an http site that now redirects to https is the same page: read as the http URL it replaces.
  const asScoped = (url: string) => (scope.startsWith("http:") ? url.replace(/^https:/, "http:") : url);
  const scoped = (url: string) => inScope(asScoped(url));

  let start: Awaited<ReturnType<typeof crawlFetch>>;
  try {
    // Conditional too: an unchanged start page answers 304 and is not downloaded just to see that the site is up.
    const headers = conditionalHeaders(validators.get(normalise(options.url)));
    start = await crawlFetch(options.url, o, { headers, follows: (url) => scoped(normalise(url)), read: false });
  } catch (error) {
    options.signal?.throwIfAborted();
    throw badRequest(`Could not reach ${options.url}: ${(error as Error).message}`, "url", "unreachable_url");
  }
  const moved = start.refused;
  if (moved && scoped(normalise(moved))) throw badRequest(`${options.url} redirects more than 5 times.`, "url", "unreachable_url");
  if (moved) throw badRequest(`${options.url} redirects to ${moved}, outside ${scope}: add that URL instead.`, "url", "unreachable_url");
  if (!(start.status >= 200 && start.status < 300) && start.status !== 304)
    throw badRequest(`${options.url} answered HTTP ${start.status}.`, "url", "unreachable_url");

  const robotsUrl = new URL("/robots.txt", scope).toString();
  let robots: RobotsRules = parseRobots(robotsUrl, "", USER_AGENT);
  const robotsText = await crawlFetch(robotsUrl, o, { follows: (url) => sameSite(url) }).catch(() => null);
  if (robotsText?.body) robots = parseRobots(robotsUrl, robotsText.body.toString("utf8"), USER_AGENT);
  // Cheap tests first: robots.txt's rules are matched last.
  const allowed = (url: string) => url.length <= MAX_URL_LENGTH && inScope(url) && isContentPath(relPath(url)) && robots.allowed(url);

  // Sitemap: the one named, else robots.txt's, else sitemap.xml in the scope.
  const queue: string[] = [];
  const seen = new Set<string>();
  /** Queues a URL once, within the page limit (`checked`: already found `allowed`). */
  const enqueue = (raw: string, checked = false) => {
    if (seen.size >= maxPages) return;
    let s: string;
    try {
      s = normalise(raw);
    } catch {
      return; // not a URL (a relative <loc>)
    }
    if (!seen.has(s) && (checked || allowed(s))) {
      seen.add(s);
      queue.push(s);
    }
  };
  /** Queues a sitemap's URLs within the page limit, giving the event loop its turn every thousand (a sitemap may list 50,000). */
  const enqueueAll = async (urls: Iterable<string>) => {
    let n = 0;
    for (const url of urls) {
      if (seen.size >= maxPages) return;
      enqueue(url);
      if (++n % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  // What the crawl yields, pages in the order they complete; a page or sitemap the site could not serve now is yielded
  // as `unavailable`, so the sync keeps what it had indexed rather than take it for removed.
  const ready: SourceDocument[] = [];
  const pagePath = (url: string, type: string) => {
    const path = relPath(url.split("?")[0]!);
    return /\.[a-z]+$/i.test(path) || /markdown/.test(type) ? path : `${path.replace(/\/$/, "")}/index.html`;
  };
  const notServed = (url: string) =>
    ready.push({ url, relPath: pagePath(url, ""), unavailable: true, read: () => Promise.reject(new Error(`${url} could not be downloaded`)) });
  /**
   * A sitemap's text, when it is on `site` and answers: the site's own, or the site of a sitemap the
   * operator named with --sitemap (its entries are still only crawled inside the start folder).
   */
  let sitemapsRead = 0;
  const sitemap = async (url: string, site: string) => {
    if (!sameSite(url, site) || sitemapsRead++ >= MAX_SITEMAPS) return null;
    const fetched = await crawlFetch(url, o, { follows: (to) => sameSite(to, site) }).catch(() => null);
    // A sitemap the site could not serve now may list pages no link reaches: like a page it could not serve, it keeps them.
    if (!fetched || fetched.status >= 500 || fetched.status === 429) {
      options.signal?.throwIfAborted();
      notServed(url);
      return null;
    }
    return fetched.body?.toString("utf8") ?? null;
  };
  const sitemapUrls = options.sitemap ? [options.sitemap] : [...robots.sitemaps, new URL("sitemap.xml", scope).toString()].slice(0, MAX_CHILD_SITEMAPS);
  const site = options.sitemap ?? scope;
  for (const sitemapUrl of sitemapUrls) {
    const xml = await sitemap(sitemapUrl, site);
    if (xml === null) continue;
    const nested: string[] = [];
    if (/<sitemapindex/.test(xml))
      for (const child of locs(xml)) {
        if (sameSite(child, site)) nested.push(child);
        if (nested.length === MAX_CHILD_SITEMAPS) break;
      }
    for (const child of nested) {
      if (seen.size >= maxPages) break;
      options.signal?.throwIfAborted();
      await enqueueAll(locs((await sitemap(child, site)) ?? ""));
    }
    if (!nested.length) await enqueueAll(locs(xml));
    if (seen.size > 0) break;
  }
  const followLinks = seen.size === 0;
  if (followLinks) enqueue(options.url);

  // Fetch with bounded concurrency.
  let active = 0;
  let wake: (() => void) | null = null;
  const signal = () => wake?.();
  // A page the site could not serve now (unreachable, 5xx or 429 after retries, too large) is not a page it removed.
  const unavailable = (url: string) => {
    const known = validators.get(url);
    if (followLinks) for (const link of known?.links ?? []) enqueue(link);
    notServed(url);
  };
  const visit = async (url: string) => {
    try {
      const known = validators.get(url);
      const response = await crawlFetch(url, o, {
        headers: conditionalHeaders(known),
        follows: (to) => allowed(asScoped(normalise(to))),
        // A PDF or an image in the folder is not downloaded to be dropped.
        accepts: (headers) => PAGE_TYPES.has(mediaType(headers)),
      });
      if (response.status === 304 && known) {
        if (followLinks) for (const link of known.links ?? []) enqueue(link);
        ready.push({
          url,
          relPath: pagePath(url, ""),
          notModified: true,
          validator: known,
          read: () => Promise.reject(new Error(`${url} was not downloaded (304 Not Modified)`)),
        });
        return;
      }
      if (response.status >= 500 || response.status === 429) return unavailable(url);
      // No body: not a 2xx (a 404 is a page gone), not a page type (see `accepts`), or a redirect not followed.
      const bytes = response.body;
      if (!bytes) return;
      const type = mediaType(response.headers);
      const finalUrl = response.url;
      const found = new Set<string>();
      if (followLinks && /html/.test(type)) {
        // Parsed on the page parser's thread: a page no parser can read is left out, one over its limits kept as it was.
        const hrefs = await parser.pageHrefs(bytes.toString("utf8"), finalUrl);
        if (hrefs === "over-limit") return unavailable(url);
        if (!hrefs) return;
        // Each link checked once; a page's links kept up to MAX_PAGE_LINK_CHARS (stored with the page, to follow on a 304).
        let chars = 0;
        for (const href of hrefs) {
          if (href.length > MAX_URL_LENGTH) continue;
          const link = normalise(href);
          if (found.has(link) || !allowed(link)) continue;
          if ((chars += link.length) > MAX_PAGE_LINK_CHARS) break;
          found.add(link);
          enqueue(link, true);
        }
      }
      const links = [...found];
      const etag = response.headers.get("etag");
      const lastModified = response.headers.get("last-modified");
      const validator = options.basis && (etag || lastModified) ? { etag, lastModified, links: followLinks ? links : null, basis: options.basis } : undefined;
      ready.push({ url, relPath: pagePath(url, type), read: async () => bytes, ...(validator && { validator }) });
    } catch {
      // Unreachable after retries, or too large; not when the crawl itself was stopped.
      if (!options.signal?.aborted) unavailable(url);
    } finally {
      active--;
      signal();
    }
  };
  while (queue.length > 0 || active > 0 || ready.length > 0) {
    options.signal?.throwIfAborted();
    while (active < concurrency && queue.length > 0) {
      active++;
      void visit(queue.shift()!);
    }
    if (ready.length > 0) {
      yield ready.shift()!;
      continue;
    }
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
}
