import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import { badRequest } from "../core/errors.ts";
import type { IndexWriter, PageChunks } from "../core/retriever.ts";
import type { SourceCatalog, SourceInfo } from "../core/source-catalog.ts";
import { chunkPage } from "./chunk-sections.ts";
import { extractHtml } from "./html-extract.ts";
import type { DocumentFile } from "./list-documents.ts";
import { extractMarkdown } from "./markdown-extract.ts";

export interface IngestInput {
  name: string;
  baseUrl: string;
  description?: string;
  /** Where the documents came from, for `sources list`. */
  origin: string;
  documents: DocumentFile[];
}

export interface IngestResult {
  source: SourceInfo;
  pages: number;
  chunks: number;
  /** Files that could not be read, were binary, or held no text. */
  skipped: number;
  /** Pages left out as not content: tables of contents and indexes, or copies of another page. */
  notContent: number;
  seconds: number;
}

const MAX_FILE_BYTES = 20 * 1024 * 1024;

export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw badRequest(`The base URL '${baseUrl}' is not a URL.`, "base_url", "invalid_url");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw badRequest(`The base URL '${baseUrl}' must be http or https.`, "base_url", "invalid_url");
  url.hash = "";
  url.search = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url.toString();
}

type ReadResult = { page: PageChunks } | { skipped: "unreadable" | "not-content" };

/** Reads, extracts and chunks one file. */
export function readPage(doc: DocumentFile, sourceId: string, baseUrl: string): ReadResult {
  let bytes: Buffer;
  try {
    if (fs.statSync(doc.file).size > MAX_FILE_BYTES) return { skipped: "unreadable" };
    bytes = fs.readFileSync(doc.file);
  } catch {
    return { skipped: "unreadable" };
  }
  if (bytes.subarray(0, 8192).includes(0)) return { skipped: "unreadable" };
  const text = bytes.toString("utf8");
  const page = /\.(md|mdx|markdown)$/i.test(doc.relPath) ? extractMarkdown(text) : extractHtml(text);
  if (page.navigational) return { skipped: "not-content" };
  if (!page.title) page.title = doc.relPath.replace(/\.[^.]+$/, "");
  const url = new URL(doc.relPath.split("/").map(encodeURIComponent).join("/"), baseUrl).toString();
  const chunks = chunkPage(page, { sourceId, url });
  if (chunks.length === 0) return { skipped: "unreadable" };
  return { page: { url, hash: createHash("sha256").update(bytes).digest("hex"), chunks } };
}

const normalised = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * Drops repeated content within a source: a page identical to an earlier one
 * (a symlinked index.html), and a passage that also stands on another page,
 * kept only on the more specific page (the one with fewer passages) so that
 * all-in-one pages do not crowd out the reference page of a subject.
 */
export function dropDuplicates(pages: PageChunks[]): { pages: PageChunks[]; duplicates: number } {
  const seenPages = new Set<string>();
  const unique = pages.filter((p) => !seenPages.has(p.hash) && seenPages.add(p.hash));
  const owner = new Map<string, PageChunks>();
  for (const page of unique) {
    for (const chunk of page.chunks) {
      const key = normalised(chunk.text);
      const current = owner.get(key);
      if (!current || page.chunks.length < current.chunks.length) owner.set(key, page);
    }
  }
  const kept = unique
    .map((page) => {
      const seen = new Set<string>();
      return { ...page, chunks: page.chunks.filter((c) => { const key = normalised(c.text); return owner.get(key) === page && !seen.has(key) && seen.add(key); }) };
    })
    .filter((p) => p.chunks.length > 0);
  return { pages: kept, duplicates: pages.length - kept.length };
}

/**
 * Ingests a set of documents as one knowledge source. Re-ingesting a name
 * replaces that source in one atomic index step (same id), so the operation
 * is idempotent; a failure leaves the previous state serving.
 */
export async function ingestDocuments(deps: { catalog: SourceCatalog; writer: IndexWriter }, input: IngestInput): Promise<IngestResult> {
  const started = performance.now();
  const name = input.name.trim();
  if (!name) throw badRequest("A knowledge source needs a name.", "name", "missing_name");
  const baseUrl = normaliseBaseUrl(input.baseUrl);
  const existing = await deps.catalog.findByName(name);
  const id = existing?.id ?? randomUUID();

  const read: PageChunks[] = [];
  let skipped = 0;
  let notContent = 0;
  for (const doc of input.documents) {
    const result = readPage(doc, id, baseUrl);
    if ("page" in result) read.push(result.page);
    else if (result.skipped === "not-content") notContent++;
    else skipped++;
  }
  const { pages, duplicates } = dropDuplicates(read);
  notContent += duplicates;
  if (pages.length === 0) {
    throw badRequest(
      `No HTML or Markdown documents with text were found in ${input.origin}${skipped ? ` (${skipped} unreadable or empty files skipped)` : ""}.`,
      "dir",
      "no_documents",
    );
  }

  const counts = await deps.writer.replaceSource(id, pages);
  let source: SourceInfo;
  try {
    source = await deps.catalog.upsert({
      id,
      name,
      description: input.description ?? existing?.description ?? "",
      baseUrl,
      origin: input.origin,
      pages: counts.pages,
      chunks: counts.chunks,
    });
  } catch (error) {
    // A new source the catalog could not record must not linger in the index.
    if (!existing) await deps.writer.removeSource(id);
    throw error;
  }
  return { source, pages: counts.pages, chunks: counts.chunks, skipped, notContent, seconds: (performance.now() - started) / 1000 };
}

/** Removes a source from the catalog first (so it stops being served), then from the index. */
export async function removeSource(deps: { catalog: SourceCatalog; writer: IndexWriter }, id: string): Promise<boolean> {
  const removed = await deps.catalog.remove(id);
  await deps.writer.removeSource(id);
  return removed;
}
