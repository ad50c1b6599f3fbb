import path from "node:path";
import type { AppServices } from "../app-services.ts";
import { ingestDocuments, removeSource, type IngestResult } from "../ingest/ingest-documents.ts";
import { crawl, folderOf } from "../ingest/crawl.ts";
import { listDocuments, type SourceDocument } from "../ingest/list-documents.ts";
import { BUNDLED_ORIGIN, bundledDocuments } from "../demo-source.ts";
import { table, UsageError } from "./output.ts";

export interface SourceFlags {
  name?: string;
  dir?: string;
  url?: string;
  sitemap?: string;
  "max-pages"?: string;
  "base-url"?: string;
  description?: string;
  json?: boolean;
}

/** The documents a source was made from, read again: its site, the bundled docs (the demo) or its folder. */
function documentsOf(origin: string): SourceDocument[] | AsyncIterable<SourceDocument> {
  if (/^https?:\/\//.test(origin)) return crawl({ url: origin });
  if (origin === BUNDLED_ORIGIN) return bundledDocuments();
  return listDocuments(origin);
}

/** A progress line on a terminal only; scripts and CI see just the summary. */
function progress(label: string) {
  if (!process.stderr.isTTY) return undefined;
  let last = 0;
  return (done: number, total: number | null) => {
    const now = Date.now();
    if (now - last < 100 && done !== total) return;
    last = now;
    process.stderr.write(`\r${label}: ${done}${total ? `/${total}` : ""} documents read…`);
    if (done === total) process.stderr.write("\n");
  };
}

function report(verb: string, result: IngestResult, json: boolean | undefined, print: (s: string) => void) {
  const { source } = result;
  if (json) {
    print(
      JSON.stringify({
        id: source.id,
        name: source.name,
        base_url: source.baseUrl,
        pages: result.pages,
        chunks: result.chunks,
        added: result.added,
        changed: result.changed,
        removed: result.removed,
        unchanged: result.unchanged,
        skipped: result.skipped,
        not_content: result.notContent,
        seconds: Number(result.seconds.toFixed(3)),
      }),
    );
  } else {
    print(
      `${verb} "${source.name}" (id ${source.id}): ${result.added} added, ${result.changed} changed, ${result.removed} removed, ${result.unchanged} unchanged pages; ` +
        `${result.skipped} unreadable files skipped, ${result.notContent} non-content pages left out; now ${result.pages} pages, ${result.chunks} chunks; ${result.seconds.toFixed(1)} s.`,
    );
  }
}

export async function sourcesCommand(services: AppServices, [action, ...rest]: string[], flags: SourceFlags, print: (s: string) => void) {
  switch (action) {
    case "add": {
      if (flags.name && flags.url) {
        const result = await ingestDocuments(services, {
          name: flags.name,
          baseUrl: flags["base-url"] ?? folderOf(flags.url),
          description: flags.description,
          origin: flags.url,
          documents: crawl({ url: flags.url, sitemap: flags.sitemap, maxPages: flags["max-pages"] ? Number(flags["max-pages"]) : undefined }),
          onProgress: progress(`Crawling "${flags.name}"`),
        });
        report("Added", result, flags.json, print);
        return;
      }
      if (!flags.name || !flags.dir || !flags["base-url"]) {
        throw new UsageError("sources add needs --name NAME and either --dir PATH --base-url URL or --url URL [--sitemap URL] [--max-pages N]");
      }
      const dir = path.resolve(flags.dir);
      const result = await ingestDocuments(services, {
        name: flags.name,
        baseUrl: flags["base-url"],
        description: flags.description,
        origin: dir,
        documents: listDocuments(dir),
        onProgress: progress(`Adding "${flags.name}"`),
      });
      report("Added", result, flags.json, print);
      return;
    }
    case "sync": {
      const id = rest[0];
      if (!id) throw new UsageError("sources sync needs the source's ID (see sources list)");
      const source = await services.catalog.get(id);
      if (!source) throw new UsageError(`No knowledge source with id ${id}.`);
      const result = await ingestDocuments(services, {
        name: source.name,
        baseUrl: source.baseUrl,
        description: source.description,
        origin: source.origin,
        documents: documentsOf(source.origin),
        onProgress: progress(`Syncing "${source.name}"`),
      });
      report("Synced", result, flags.json, print);
      return;
    }
    case "list": {
      const sources = await services.catalog.list();
      if (flags.json) {
        print(JSON.stringify(sources.map((s) => ({ id: s.id, name: s.name, description: s.description, base_url: s.baseUrl, pages: s.pages, chunks: s.chunks, updated_at: s.updatedAt.toISOString() }))));
      } else {
        print(sources.length ? table(sources.map((s) => ({ id: s.id, name: s.name, pages: s.pages, chunks: s.chunks, base_url: s.baseUrl }))) : "No knowledge sources yet. Add one with: npm run cli -- sources add --name NAME --dir PATH --base-url URL");
      }
      return;
    }
    case "remove": {
      const id = rest[0];
      if (!id) throw new UsageError("sources remove needs the source's ID (see sources list)");
      if (!(await removeSource(services, id))) throw new UsageError(`No knowledge source with id ${id}.`);
      print(flags.json ? JSON.stringify({ id, removed: true }) : `Removed source ${id}.`);
      return;
    }
    default:
      throw new UsageError("sources: use add --name NAME (--dir PATH --base-url URL | --url URL [--sitemap URL] [--max-pages N]) [--description TEXT] [--json] | sync ID [--json] | list [--json] | remove ID");
  }
}
