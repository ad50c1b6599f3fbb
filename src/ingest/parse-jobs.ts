import { parse } from "node-html-parser";
import { checkNesting } from "./nesting-limit.ts";
import { type ParseResult, parsePage } from "./parse-page.ts";

/** Work the page parser's thread does: one page read for the index, or one HTML page's links for the crawler. */
export type ParseJob =
  | { kind: "page"; bytes: Uint8Array; doc: { relPath: string; url?: string }; sourceId: string; baseUrl: string }
  | { kind: "hrefs"; html: string; base: string };

/** More links than any documentation page holds (the Python manual's full index: about 20,000 entries to 5,000 pages). */
export const MAX_PAGE_LINKS = 10_000;

/**
 * The distinct pages an HTML page links to, as absolute URLs without their
 * fragment, resolved against `base`; at most MAX_PAGE_LINKS. Resolving here,
 * on the parser's thread, keeps a page of hundreds of thousands of links from
 * holding the server's thread.
 */
export function pageHrefs(html: string, base: string): string[] {
  // Nested past any documentation, the parser would overflow its stack or take seconds: the page throws.
  checkNesting(html, false);
  const found = new Set<string>();
  for (const a of parse(html).querySelectorAll("a[href]")) {
    if (found.size >= MAX_PAGE_LINKS) break;
    try {
      const url = new URL(a.getAttribute("href") ?? "", base);
      url.hash = "";
      found.add(url.toString());
    } catch {
      // not a URL
    }
  }
  return [...found];
}

export function runParseJob(job: ParseJob): ParseResult | string[] {
  if (job.kind === "hrefs") return pageHrefs(job.html, job.base);
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  return parsePage(bytes, job.doc, job.sourceId, job.baseUrl);
}
