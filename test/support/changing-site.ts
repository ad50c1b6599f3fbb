import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

const page = (title: string, body: string) => `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/**
 * A local documentation site whose pages can change between crawls, and that
 * answers conditional requests as a static file server does (ETag and
 * Last-Modified; 304 when unchanged). It counts what it was asked and what it
 * answered, and can answer slowly or hold its answers. Never the internet.
 */
export async function startChangingSite(pages: Record<string, { title: string; body: string }>) {
  const files = new Map<string, { html: string; etag: string; modified: string }>();
  const set = (path: string, title: string, body: string) => {
    const html = page(title, body);
    files.set(path, { html, etag: `"${createHash("sha1").update(html).digest("hex").slice(0, 16)}"`, modified: new Date(Date.now() - 60_000).toUTCString() });
  };
  for (const [path, p] of Object.entries(pages)) set(path, p.title, p.body);
  const log: Array<{ path: string; status: number; conditional: boolean }> = [];
  let delayMs = 0;
  const failures = new Map<string, number>();
  const unvalidated = new Set<string>();
  let gate: Promise<void> | null = null;
  let active = 0;
  let maxActive = 0;
  const server = http.createServer(async (req, res) => {
    const path = req.url!.split("?")[0]!;
    const conditional = req.headers["if-none-match"] !== undefined || req.headers["if-modified-since"] !== undefined;
    active++;
    maxActive = Math.max(maxActive, active);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (gate) await gate;
    active--;
    const file = files.get(path);
    const answer = (status: number, headers: Record<string, string> = {}, body?: string) => {
      log.push({ path, status, conditional });
      res.writeHead(status, headers).end(body);
    };
    const failing = failures.get(path);
    if (failing) return answer(failing);
    if (!file) return answer(404, {}, "not found");
    const validators: Record<string, string> = unvalidated.has(path) ? {} : { etag: file.etag, "last-modified": file.modified };
    // As static servers do: If-None-Match wins; If-Modified-Since only without it.
    const unchanged =
      req.headers["if-none-match"] !== undefined ? req.headers["if-none-match"] === file.etag : req.headers["if-modified-since"] === file.modified;
    if (unchanged) return answer(304, validators);
    answer(200, { "content-type": "text/html; charset=utf-8", ...validators }, file.html);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** Changes a page (new content, new ETag and Last-Modified). */
    change: (path: string, title: string, body: string) => set(path, title, body),
    /** Requests since `from` (an index into the log), by status. */
    since: (from: number) => log.slice(from),
    get requests() {
      return log.length;
    },
    slow: (ms: number) => (delayMs = ms),
    /** Answers a path with this status from now on (0: as usual again). */
    fail: (path: string, status: number) => (status ? failures.set(path, status) : failures.delete(path)),
    /** Answers a path without ETag or Last-Modified, as dynamic pages often are. */
    withoutValidators: (path: string) => unvalidated.add(path),
    /** Forgets a page: a 404 from now on. */
    remove: (path: string) => files.delete(path),
    /** Holds every answer until the returned function is called. */
    hold() {
      let open = () => {};
      gate = new Promise<void>((r) => (open = r));
      return () => {
        gate = null;
        open();
      };
    },
    get maxActive() {
      return maxActive;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type ChangingSite = Awaited<ReturnType<typeof startChangingSite>>;
