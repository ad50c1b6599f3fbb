import { parse } from "node-html-parser";
import { checkNesting } from "./nesting-limit.ts";
import { type ParseResult, parsePage } from "./parse-page.ts";

/** Work the page parser's thread does: one page read for the index, or one HTML page's links for the crawler. */
export type ParseJob =
  | { kind: "page"; bytes: Uint8Array; doc: { relPath: string; url?: string }; sourceId: string; baseUrl: string }
  | { kind: "hrefs"; html: string };

/** Every link's href on an HTML page, as written. */
export function pageHrefs(html: string): string[] {
  // Nested past any documentation, the parser would overflow its stack or take seconds: the page throws.
  checkNesting(html, false);
  return parse(html)
    .querySelectorAll("a[href]")
    .map((a) => a.getAttribute("href") ?? "");
}

export function runParseJob(job: ParseJob): ParseResult | string[] {
  if (job.kind === "hrefs") return pageHrefs(job.html);
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  return parsePage(bytes, job.doc, job.sourceId, job.baseUrl);
}
