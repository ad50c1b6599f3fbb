import { createHash, randomUUID } from "node:crypto";
import type { Embedder } from "../core/embedder.ts";
import { badRequest, DocentError } from "../core/errors.ts";
import type { IndexWriter, PageChunks, PageReader } from "../core/retriever.ts";
import type { SourceCatalog, SourceInfo } from "../core/source-catalog.ts";
import type { PageCounts, SyncLeases } from "../core/source-sync.ts";
import { dropDuplicates } from "./drop-duplicates.ts";
import type { SourceDocument } from "./list-documents.ts";
import { type PageParser, sharedPageParser } from "./page-parser.ts";
import type { ParseResult } from "./parse-page.ts";

export { dropDuplicates };

export interface IngestInput {
  /** The source being synced, when it exists: it must still exist (a sync never brings back a source removed meanwhile). */
  id?: string;
  /** The id a new source gets (leased by the caller; a random one otherwise), unless one of that name exists. */
  newId?: string;
  name: string;
  baseUrl: string;
  description?: string;
  /** Where the documents came from (a folder or a URL): `sources sync` reads it again. */
  origin: string;
  documents: SourceDocument[] | AsyncIterable<SourceDocument>;
  /** Called as documents are read, for a progress display. */
  onProgress?: (done: number, total: number | null) => void;
}

export interface IngestResult extends PageCounts {
  source: SourceInfo;
  /** Pages left out as not content: tables of contents and indexes, or copies of another page. */
  notContent: number;
  seconds: number;
}

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

export const pageUrl = (doc: Pick<SourceDocument, "relPath" | "url">, baseUrl: string) =>
  doc.url ?? new URL(doc.relPath.split("/").map(encodeURIComponent).join("/"), baseUrl).toString();

/**
 * Bumped whenever extraction or chunking changes what a page becomes, so the
 * next sync re-reads pages whose bytes did not change.
 */
const EXTRACTION_VERSION = "12";
/**
 * What a page was indexed from: its bytes, the extraction version and the
 * base URL (which decides the page's URL and which of its links stay within
 * the source), so a page is skipped only when it would be indexed the same.
 */
export const contentHash = (bytes: Buffer, baseUrl: string) =>
  createHash("sha256").update(`docent-extraction-${EXTRACTION_VERSION}\n${baseUrl}\n`).update(bytes).digest("hex");

/** What a page is indexed as besides its bytes: a page its server says is unchanged is kept only on the same basis. */
export const extractionBasis = (baseUrl: string) => `docent-extraction-${EXTRACTION_VERSION} ${normaliseBaseUrl(baseUrl)}`;

/** Reads, extracts and chunks one document, on the page parser's thread. */
export async function readPage(doc: SourceDocument, sourceId: string, baseUrl: string): Promise<ParseResult> {
  let bytes: Buffer;
  try {
    bytes = await doc.read();
  } catch {
    return { skipped: "unreadable" };
  }
  return sharedPageParser().parsePage(bytes, doc, sourceId, baseUrl);
}

/**
 * Ingests documents as one knowledge source, incrementally: pages whose
 * content hash is unchanged are skipped, changed pages replaced, pages gone
 * from the documents removed — all in one atomic index step, so a failed or
 * interrupted ingestion leaves the previous state serving. The same name
 * again is the same source (same id): ingestion is idempotent.
 */
export async function ingestDocuments(
  deps: { catalog: SourceCatalog; writer: IndexWriter; readPage?: PageReader; embedder?: Embedder; parser?: PageParser },
  input: IngestInput,
): Promise<IngestResult> {
  const started = performance.now();
  const parser = deps.parser ?? sharedPageParser();
  const name = input.name.trim();
  if (!name) throw badRequest("A knowledge source needs a name.", "name", "missing_name");
  const baseUrl = normaliseBaseUrl(input.baseUrl);
  const existing = input.id ? await deps.catalog.get(input.id) : await deps.catalog.findByName(name);
  if (input.id && !existing) sourceRemoved(input.id);
  const id = existing?.id ?? input.newId ?? randomUUID();
  const known = existing ? await deps.writer.pageHashes(id) : new Map<string, string>();

  // In the documents' order (the first of two copies is the one kept), whatever order their parses end in.
  const parsed: Array<PageChunks | null> = [];
  const parsing = new Set<Promise<void>>();
  const present = new Set<string>();
  const counts = { added: 0, changed: 0, unchanged: 0, notModified: 0, skipped: 0, notContent: 0 };
  const total = Array.isArray(input.documents) ? input.documents.length : null;
  let done = 0;
  let incomplete = false;
  // A page its site could not serve now: what is indexed of it stays, and so does every other page,
  // since the pages it links to may not have been found either. Only a crawl that reached every page removes.
  const keepAsIndexed = (url: string) => {
    if (known.has(url)) present.add(url);
    incomplete = true;
    counts.skipped++;
  };
  for await (const doc of input.documents) {
    input.onProgress?.(++done, total);
    if (doc.notModified) {
      // Its server says it is as it was: keep it if it is indexed (it was, unless the index changed meanwhile).
      const url = pageUrl(doc, baseUrl);
      if (known.has(url)) {
        present.add(url);
        counts.unchanged++;
        counts.notModified++;
      } else counts.skipped++;
      continue;
    }
    if (doc.unavailable) {
      keepAsIndexed(pageUrl(doc, baseUrl));
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = await doc.read();
    } catch {
      counts.skipped++;
      continue;
    }
    const url = pageUrl(doc, baseUrl);
    if (known.get(url) === contentHash(bytes, baseUrl)) {
      present.add(url);
      counts.unchanged++;
      continue;
    }
    const slot = parsed.push(null) - 1;
    const job = parser.parsePage(bytes, doc, id, baseUrl).then((result) => {
      if ("page" in result) {
        parsed[slot] = result.page;
        present.add(url);
      } else if (result.skipped === "not-content") counts.notContent++;
      // Over the parser's limits now (a busy machine): kept as indexed, like a page its site could not serve.
      else if (result.skipped === "over-limit") keepAsIndexed(url);
      else counts.skipped++;
    });
    parsing.add(job);
    void job.then(
      () => parsing.delete(job),
      () => parsing.delete(job),
    );
    // One page waiting behind the one being parsed keeps the parser's thread busy while this one takes the last result in.
    if (parsing.size >= 2) await Promise.race(parsing);
  }
  await Promise.all(parsing);
  const upsert = parsed.filter((p): p is PageChunks => p !== null);
  // The pages kept as stored still say what a changed page repeats (an all-in-one page rebuilt, the pages it gathers not).
  const kept = upsert.length > 0 && known.size > 0 && deps.readPage ? await storedPages(deps.readPage, id, present, upsert) : [];
  const { pages: fresh, duplicates } = dropDuplicates(upsert, kept);
  counts.notContent += duplicates;
  const keptUrls = new Set(fresh.map((p) => p.url));
  for (const page of upsert) if (!keptUrls.has(page.url)) present.delete(page.url);
  for (const page of fresh) known.has(page.url) ? counts.changed++ : counts.added++;
  if (present.size === 0) {
    throw badRequest(
      `No HTML or Markdown documents with text were found in ${input.origin}${counts.skipped ? ` (${counts.skipped} unreadable or empty files skipped)` : ""}.`,
      "dir",
      "no_documents",
    );
  }
  const remove = incomplete ? [] : [...known.keys()].filter((url) => !present.has(url));
  if (deps.embedder) {
    // Passages are embedded before the index changes, so a failing embeddings service changes nothing.
    const chunks = fresh.flatMap((p) => p.chunks);
    const vectors = await deps.embedder.embed(chunks.map((c) => `${c.title}\n${c.section}\n${c.text}`));
    chunks.forEach((c, i) => {
      c.embedding = vectors[i];
    });
  }

  const totals = await deps.writer.applyChanges(id, { upsert: fresh, remove });
  let source: SourceInfo;
  try {
    source = await deps.catalog.upsert({
      id,
      name,
      description: input.description ?? existing?.description ?? "",
      baseUrl,
      origin: input.origin,
      pages: totals.pages,
      chunks: totals.chunks,
    });
  } catch (error) {
    // A new source the catalog could not record must not linger in the index.
    if (!existing) await deps.writer.removeSource(id);
    throw error;
  }
  return { source, ...totals, ...counts, removed: remove.length, seconds: (performance.now() - started) / 1000 };
}

/** Why a sync of a source removed since it was listed stopped (it does not bring the source back): no failure to report. */
export const SOURCE_REMOVED = "source_removed";
const sourceRemoved = (id: string): never => {
  throw new DocentError("NOT_FOUND", `The knowledge source ${id} was removed; nothing was synced.`, { reason: SOURCE_REMOVED });
};

/**
 * Removes a source under its sync lease, so no sync is writing it meanwhile (one would bring it back, or leave it
 * listed with an empty index): while a sync holds it, nothing is removed and `busy` names the holder. The catalog's
 * row goes first (the lease with it), so the source stops being served before its passages go.
 */
export async function removeSource(
  deps: { catalog: SourceCatalog; writer: IndexWriter; syncLeases: Pick<SyncLeases, "acquire" | "release" | "holder"> },
  id: string,
  holder: string,
): Promise<{ removed: boolean; busy?: string | null }> {
  if (!(await deps.syncLeases.acquire(id, holder, 60_000))) return { removed: false, busy: (await deps.syncLeases.holder(id))?.holder ?? null };
  let removed = false;
  try {
    removed = await deps.catalog.remove(id);
  } finally {
    if (!removed) await deps.syncLeases.release(id, holder).catch(() => {});
  }
  await deps.writer.removeSource(id);
  return { removed };
}

/** The source's pages this sync keeps as they are, read back from the index (read only, never rewritten). */
async function storedPages(readPage: PageReader, sourceId: string, present: ReadonlySet<string>, changed: readonly PageChunks[]): Promise<PageChunks[]> {
  const changedUrls = new Set(changed.map((p) => p.url));
  const pages: PageChunks[] = [];
  for (const url of present) {
    if (changedUrls.has(url)) continue;
    const stored = await readPage(url, [sourceId]);
    if (stored)
      pages.push({
        url,
        hash: `stored ${url}`,
        chunks: stored.passages.map((p) => ({ sourceId, url, anchor: p.anchor, title: stored.title, section: p.section, text: p.text })),
      });
  }
  return pages;
}
