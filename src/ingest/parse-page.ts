import type { PageChunks } from "../core/retriever.ts";
import { chunkPage } from "./chunk-sections.ts";
import { extractHtml } from "./html-extract.ts";
import { contentHash, pageUrl } from "./ingest-documents.ts";
import { extractMarkdown } from "./markdown-extract.ts";
import { checkNesting } from "./nesting-limit.ts";

/** `over-limit`: the page took the parser past its time or memory limit, which a less busy machine may not (see page-parser.ts). */
export type ParseResult = { page: PageChunks } | { skipped: "unreadable" | "not-content" | "over-limit" };

/** Longer titles and headings are cut, with an ellipsis: no real one is this long. */
export const MAX_HEADING_CHARS = 300;
const clipped = (text: string) =>
  text.length <= MAX_HEADING_CHARS
    ? text
    : `${text
        .slice(0, MAX_HEADING_CHARS - 1)
        .replace(/[\uD800-\uDBFF]$/, "")
        .trimEnd()}…`;

/**
 * Extracts and chunks one document's bytes. Synchronous and unbounded in time:
 * it runs on the page parser's thread (page-parser.ts), never the server's.
 * Throws on a page no parser can read (HTML nested past the limit).
 */
export function parsePage(bytes: Buffer, doc: { relPath: string; url?: string }, sourceId: string, baseUrl: string): ParseResult {
  if (bytes.subarray(0, 8192).includes(0)) return { skipped: "unreadable" };
  const text = bytes.toString("utf8");
  const markdown = /\.(md|mdx|markdown)$/i.test(doc.relPath);
  checkNesting(text, markdown);
  const page = markdown ? extractMarkdown(text, { mdx: /\.mdx$/i.test(doc.relPath) }) : extractHtml(text);
  if (page.navigational) return { skipped: "not-content" };
  if (!page.title) page.title = doc.relPath.replace(/\.[^.]+$/, "");
  // Every passage repeats its page's title and heading path: a page's 200 KB title made GBs of 2,000 passages.
  page.title = clipped(page.title);
  for (const section of page.sections) section.headings = section.headings.map(clipped);
  const url = pageUrl(doc, baseUrl);
  const chunks = chunkPage(page, { sourceId, url, scope: baseUrl });
  if (chunks.length === 0) return { skipped: "unreadable" };
  return { page: { url, hash: contentHash(bytes, baseUrl), chunks } };
}
