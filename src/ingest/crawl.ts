import { parse } from "node-html-parser";
import { badRequest } from "../core/errors.ts";
import type { PageValidator } from "../core/source-sync.ts";
import { normaliseBaseUrl } from "./ingest-documents.ts";
import { isContentPath, type SourceDocument } from "./list-documents.ts";
import { parseRobots, type RobotsRules } from "./robots.ts";

export interface CrawlOptions {
  /** Where to start; pages outside its folder are not fetched. */
  url: string;
  sitemap?: string;
  maxPages?: number;
  concurrency?: number;
  retries?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /**
   * The last sync's validators by page URL: those pages are asked for with
   * If-None-Match / If-Modified-Since, and a 304 yields a `notModified`
   * document (its stored links are followed) instead of downloading it again.
   */
  validators?: ReadonlyMap<string, PageValidator>;
  /** Stamped on the validators of pages downloaded now (see PageValidator.basis). */
  basis?: string;
  /** Stops the crawl: requests in flight are aborted and the iteration throws. */
  signal?: AbortSignal;
}

const USER_AGENT = "docent-crawler/0.1";
const PAGE_TYPES = /text\/html|application\/xhtml\+xml|text\/markdown|text\/plain/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type FetchOptions = Required<Pick<CrawlOptions, "retries" | "timeoutMs">> & { fetch: typeof fetch; signal?: AbortSignal };

/** The headers that ask for a page only if it changed since `known` was stored. */
function conditionalHeaders(known: PageValidator | undefined): Record<string, string> {
  if (!known) return {};
  return { ...(known.etag && { "if-none-match": known.etag }), ...(known.lastModified && { "if-modified-since": known.lastModified }) };
}

/** GET with a time-out and retries with exponential backoff on network errors, 429 and 5xx. */
async function fetchWithRetry(url: string, o: FetchOptions, headers: Record<string, string> = {}): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    o.signal?.throwIfAborted();
    try {
      const timeout = AbortSignal.timeout(o.timeoutMs);
      const signal = o.signal ? AbortSignal.any([timeout, o.signal]) : timeout;
      const response = await o.fetch(url, { headers: { "user-agent": USER_AGENT, ...headers }, signal, redirect: "follow" });
      if ((response.status === 429 || response.status >= 500) && attempt < o.retries) {
        await response.body?.cancel();
        await sleep(200 * 2 ** attempt);
        continue;
      }
      return response;
    } catch (error) {
      if (attempt >= o.retries || o.signal?.aborted) throw error;
      await sleep(200 * 2 ** attempt);
    }
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

const locs = (xml: string) => [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));

/**
 * Crawls a documentation site within the start URL's folder: the sitemap's
 * pages when there is one, otherwise the pages reachable by links; robots.txt
 * honoured, a bounded number of requests at once, retries with backoff, and a
 * page limit. Yields documents as they arrive. An unreachable start fails.
 */
export async function* crawl(options: CrawlOptions): AsyncGenerator<SourceDocument> {
  const scope = folderOf(options.url);
  const o: FetchOptions = { retries: options.retries ?? 3, timeoutMs: options.timeoutMs ?? 15_000, fetch: options.fetch ?? fetch, signal: options.signal };
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
  const inScope = (url: string) => url.startsWith(scope);
  const relPath = (url: string) => decodeURIComponent(url.slice(scope.length)) || "index.html";

  let start: Response;
  try {
    // Conditional too: an unchanged start page answers 304 and is not downloaded just to see that the site is up.
    start = await fetchWithRetry(options.url, o, conditionalHeaders(validators.get(normalise(options.url))));
  } catch (error) {
    options.signal?.throwIfAborted();
    throw badRequest(`Could not reach ${options.url}: ${(error as Error).message}`, "url", "unreachable_url");
  }
  if (!start.ok && start.status !== 304) throw badRequest(`${options.url} answered HTTP ${start.status}.`, "url", "unreachable_url");
  await start.body?.cancel();

  const robotsUrl = new URL("/robots.txt", scope).toString();
  let robots: RobotsRules = parseRobots(robotsUrl, "", USER_AGENT);
  const robotsResponse = await fetchWithRetry(robotsUrl, o).catch(() => null);
  if (robotsResponse?.ok) robots = parseRobots(robotsUrl, await robotsResponse.text(), USER_AGENT);
  else await robotsResponse?.body?.cancel();
  const allowed = (url: string) => inScope(url) && robots.allowed(url) && isContentPath(relPath(url));

  // Sitemap: the one named, else robots.txt's, else sitemap.xml in the scope.
  const queue: string[] = [];
  const seen = new Set<string>();
  const enqueue = (raw: string) => {
    const s = normalise(raw);
    if (!seen.has(s) && allowed(s) && seen.size < maxPages) {
      seen.add(s);
      queue.push(s);
    }
  };
  const sitemapUrls = options.sitemap ? [options.sitemap] : [...robots.sitemaps, new URL("sitemap.xml", scope).toString()];
  for (const sitemapUrl of sitemapUrls) {
    const response = await fetchWithRetry(sitemapUrl, o).catch(() => null);
    if (!response?.ok) {
      await response?.body?.cancel();
      continue;
    }
    const xml = await response.text();
    const entries = locs(xml);
    const nested = /<sitemapindex/.test(xml) ? entries : [];
    for (const child of nested) {
      const r = await fetchWithRetry(child, o).catch(() => null);
      if (r?.ok) for (const loc of locs(await r.text())) enqueue(loc);
    }
    if (!nested.length) for (const loc of entries) enqueue(loc);
    if (seen.size > 0) break;
  }
  const followLinks = seen.size === 0;
  if (followLinks) enqueue(options.url);

  // Fetch with bounded concurrency; yield pages in the order they complete.
  const ready: SourceDocument[] = [];
  let active = 0;
  let wake: (() => void) | null = null;
  const signal = () => wake?.();
  const pagePath = (url: string, type: string) => {
    const path = relPath(url.split("?")[0]!);
    return /\.[a-z]+$/i.test(path) || /markdown/.test(type) ? path : `${path.replace(/\/$/, "")}/index.html`;
  };
  const visit = async (url: string) => {
    try {
      const known = validators.get(url);
      const response = await fetchWithRetry(url, o, conditionalHeaders(known));
      if (response.status === 304 && known) {
        await response.body?.cancel();
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
      const type = response.headers.get("content-type") ?? "";
      if (!response.ok || !PAGE_TYPES.test(type)) {
        await response.body?.cancel();
        return;
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      const finalUrl = response.url || url;
      const links: string[] = [];
      if (followLinks && /html/.test(type)) {
        for (const a of parse(bytes.toString("utf8")).querySelectorAll("a[href]")) {
          try {
            const link = normalise(new URL(a.getAttribute("href")!, finalUrl).toString());
            if (allowed(link) && !links.includes(link)) links.push(link);
          } catch {
            // not a URL
          }
        }
        links.forEach(enqueue);
      }
      const etag = response.headers.get("etag");
      const lastModified = response.headers.get("last-modified");
      const validator = options.basis && (etag || lastModified) ? { etag, lastModified, links: followLinks ? links : null, basis: options.basis } : undefined;
      ready.push({ url, relPath: pagePath(url, type), read: async () => bytes, ...(validator && { validator }) });
    } catch {
      // Unreachable after retries: the page is left out.
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
