import type { SourceInfo } from "../core/source-catalog.ts";
import { BUNDLED_ORIGIN, bundledDocuments } from "../demo-source.ts";
import { crawl } from "../ingest/crawl.ts";
import { listDocuments, type SourceDocument } from "../ingest/list-documents.ts";
import type { Conditional } from "./run-sync.ts";

export const isCrawledOrigin = (origin: string) => /^https?:\/\//.test(origin);

/** The documents a source was made from, read again: its site (conditionally), the bundled docs (the demo) or its folder. */
export function documentsOf(
  source: Pick<SourceInfo, "origin" | "crawl">,
  conditional: Conditional,
  { allowInternal = false }: { allowInternal?: boolean } = {},
): SourceDocument[] | AsyncIterable<SourceDocument> {
  const { origin } = source;
  // A crawl follows the settings it was added with (its page limit, its sitemap).
  if (isCrawledOrigin(origin)) return crawl({ url: origin, ...source.crawl, ...conditional, allowInternal });
  if (origin === BUNDLED_ORIGIN) return bundledDocuments();
  return listDocuments(origin);
}
