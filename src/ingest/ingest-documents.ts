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
  /** Files that could not be read or were not text. */
  skipped: number;
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

/** Reads, extracts and chunks one file; null when it is unreadable, binary or empty. */
function readPage(doc: DocumentFile, sourceId: string, baseUrl: string): PageChunks | null {
  let bytes: Buffer;
  try {
    if (fs.statSync(doc.file).size > MAX_FILE_BYTES) return null;
    bytes = fs.readFileSync(doc.file);
  } catch {
    return null;
  }
  if (bytes.subarray(0, 8192).includes(0)) return null;
  const text = bytes.toString("utf8");
  const page = /\.(md|mdx|markdown)$/i.test(doc.relPath) ? extractMarkdown(text) : extractHtml(text);
  if (!page.title) page.title = doc.relPath.replace(/\.[^.]+$/, "");
  const url = new URL(doc.relPath.split("/").map(encodeURIComponent).join("/"), baseUrl).toString();
  const chunks = chunkPage(page, { sourceId, url });
  if (chunks.length === 0) return null;
  return { url, hash: createHash("sha256").update(bytes).digest("hex"), chunks };
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

  const pages: PageChunks[] = [];
  let skipped = 0;
  for (const doc of input.documents) {
    const page = readPage(doc, id, baseUrl);
    if (page) pages.push(page);
    else skipped++;
  }
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
  return { source, pages: counts.pages, chunks: counts.chunks, skipped, seconds: (performance.now() - started) / 1000 };
}

/** Removes a source from the catalog first (so it stops being served), then from the index. */
export async function removeSource(deps: { catalog: SourceCatalog; writer: IndexWriter }, id: string): Promise<boolean> {
  const removed = await deps.catalog.remove(id);
  await deps.writer.removeSource(id);
  return removed;
}
