import { deadlineSignal } from "../core/deadline-signal.ts";
import { InternalAddress } from "./address-guard.ts";

export interface CrawlFetchOptions {
  retries: number;
  /** For the whole exchange of one attempt: headers, redirects and body. */
  timeoutMs: number;
  /** A body longer than this (after decompression) is not read: the page is left out. */
  maxBytes: number;
  fetch: typeof fetch;
  signal?: AbortSignal;
}

export interface Fetched {
  status: number;
  /** Where the page was found, after the redirects followed. */
  url: string;
  headers: Headers;
  /** The body, read when the answer is a 2xx and `read` asked for it. */
  body: Buffer | null;
  /** A redirect not followed: where it led (outside what `follows` accepts, or past the hop limit). */
  refused?: string;
}

/** A body over `maxBytes`: not retried. */
export class TooLarge extends Error {}

export const USER_AGENT = "docent-crawler/0.1";
const MAX_REDIRECTS = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * GET for the crawler, written for a site that may be hostile: redirects are
 * followed here, and only to URLs `follows` accepts (a page that redirects to
 * another host, such as an internal address, is not fetched); one deadline
 * covers each attempt's headers, redirects and body, so a page that drips a
 * byte at a time ends; the body is read only up to `maxBytes`, counted after
 * decompression, so an endless page or a gzip bomb costs at most that much
 * memory. Network errors, time-outs, 429 and 5xx are retried with backoff.
 */
export async function crawlFetch(
  url: string,
  o: CrawlFetchOptions,
  {
    headers = {},
    follows,
    read = true,
    accepts = () => true,
  }: { headers?: Record<string, string>; follows: (url: string) => boolean; read?: boolean; accepts?: (headers: Headers) => boolean },
): Promise<Fetched> {
  for (let attempt = 0; ; attempt++) {
    o.signal?.throwIfAborted();
    const deadline = deadlineSignal(o.timeoutMs, o.signal);
    try {
      let at = url;
      let response: Response;
      for (let hops = 0; ; hops++) {
        response = await o.fetch(at, { headers: { "user-agent": USER_AGENT, ...headers }, signal: deadline.signal, redirect: "manual" });
        const location = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
        if (!location) break;
        await response.body?.cancel();
        const next = new URL(location, at).toString();
        if (hops >= MAX_REDIRECTS || !follows(next)) return { status: response.status, url: at, headers: response.headers, body: null, refused: next };
        at = next;
      }
      if ((response.status === 429 || response.status >= 500) && attempt < o.retries) {
        await response.body?.cancel();
        await sleep(200 * 2 ** attempt);
        continue;
      }
      const body = read && response.ok && accepts(response.headers) ? await readBounded(response, o.maxBytes) : null;
      if (!body) await response.body?.cancel();
      return { status: response.status, url: at, headers: response.headers, body };
    } catch (error) {
      // fetch wraps a refused connection in "fetch failed": what the crawl reports is why.
      const cause = (error as Error)?.cause;
      if (cause instanceof InternalAddress) throw cause;
      if (error instanceof TooLarge || error instanceof InternalAddress || attempt >= o.retries || o.signal?.aborted) throw error;
      await sleep(200 * 2 ** attempt);
    } finally {
      deadline.dispose();
    }
  }
}

async function readBounded(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > maxBytes) throw new TooLarge(`${response.url} is over ${maxBytes} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new TooLarge(`${response.url} is over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
}
