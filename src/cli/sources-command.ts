import path from "node:path";
import type { AppServices } from "../app-services.ts";
import { ingestDocuments, removeSource } from "../ingest/ingest-documents.ts";
import { listDocuments } from "../ingest/list-documents.ts";
import { table, UsageError } from "./output.ts";

export interface SourceFlags {
  name?: string;
  dir?: string;
  "base-url"?: string;
  description?: string;
  json?: boolean;
}

export async function sourcesCommand(services: AppServices, [action, ...rest]: string[], flags: SourceFlags, print: (s: string) => void) {
  switch (action) {
    case "add": {
      if (!flags.name || !flags.dir || !flags["base-url"]) throw new UsageError("sources add needs --name NAME --dir PATH --base-url URL [--description TEXT]");
      const dir = path.resolve(flags.dir);
      const result = await ingestDocuments(services, {
        name: flags.name,
        baseUrl: flags["base-url"],
        description: flags.description,
        origin: dir,
        documents: listDocuments(dir),
      });
      const { source } = result;
      if (flags.json) {
        print(JSON.stringify({ id: source.id, name: source.name, base_url: source.baseUrl, pages: result.pages, chunks: result.chunks, skipped: result.skipped, not_content: result.notContent, seconds: Number(result.seconds.toFixed(3)) }));
      } else {
        print(`Added "${source.name}" (id ${source.id}): ${result.pages} pages, ${result.chunks} chunks, ${result.skipped} unreadable files skipped, ${result.notContent} non-content pages left out, in ${result.seconds.toFixed(1)} s.`);
      }
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
      throw new UsageError("sources: use add --name NAME --dir PATH --base-url URL [--description TEXT] [--json] | list [--json] | remove ID");
  }
}
