import path from "node:path";
import type { AppServices } from "../app-services.ts";
import { sourceResource } from "../core/resources.ts";
import type { CrawlSettings, SourceInfo } from "../core/source-catalog.ts";
import type { SyncSummary } from "../core/source-sync.ts";
import { crawl, folderOf } from "../ingest/crawl.ts";
import { type IngestResult, removeSource, SOURCE_REMOVED } from "../ingest/ingest-documents.ts";
import { listDocuments } from "../ingest/list-documents.ts";
import { documentsOf } from "../sync/documents-of.ts";
import { formatInterval, parseInterval } from "../sync/interval.ts";
import { runSync, SyncInProgressError, type SyncRun, syncHolder } from "../sync/run-sync.ts";
import { table, UsageError } from "./output.ts";

export interface SourceFlags {
  name?: string;
  dir?: string;
  url?: string;
  sitemap?: string;
  "max-pages"?: string;
  "base-url"?: string;
  description?: string;
  refresh?: string;
  all?: boolean;
  json?: boolean;
}

/** Whether a progress line is on the terminal, not yet ended (a crawl's has no total to end at). */
let progressShown = false;
/** Writes the last count reported, shown or not (the line shows at most ten counts a second). */
let finalCount: (() => void) | null = null;

/** A progress line on a terminal only; scripts and CI see just the summary. */
function progress(label: string) {
  if (!process.stderr.isTTY) return undefined;
  let last = 0;
  const show = (done: number, total: number | null) =>
    process.stderr.write(`\r${label}: ${done}${total ? `/${total}` : ""} ${(total ?? done) === 1 ? "document" : "documents"} read…`);
  return (done: number, total: number | null) => {
    const now = Date.now();
    finalCount = () => show(done, total);
    if (now - last < 100 && done !== total) return;
    last = now;
    show(done, total);
    progressShown = true;
  };
}

/** Ends the progress line with the last count, so what is printed next starts a line of its own. */
function endProgress() {
  if (progressShown) {
    finalCount?.();
    process.stderr.write("\n");
  }
  progressShown = false;
  finalCount = null;
}

/** A sync with its progress line ended however it ends. */
async function withProgress<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } finally {
    endProgress();
  }
}

function reportObject(result: IngestResult) {
  const { source } = result;
  return {
    id: source.id,
    name: source.name,
    base_url: source.baseUrl,
    pages: result.pages,
    chunks: result.chunks,
    added: result.added,
    changed: result.changed,
    removed: result.removed,
    unchanged: result.unchanged,
    not_modified: result.notModified,
    skipped: result.skipped,
    not_content: result.notContent,
    seconds: Number(result.seconds.toFixed(3)),
  };
}

function reportLine(verb: string, result: IngestResult) {
  const { source } = result;
  const notModified = result.notModified > 0 ? ` (${result.notModified} not downloaded: the server said not modified)` : "";
  return (
    `${verb} "${source.name}" (id ${source.id}): ${result.added} added, ${result.changed} changed, ${result.removed} removed, ${result.unchanged} unchanged pages${notModified}; ` +
    `${result.skipped} unreadable or empty files skipped, ${result.notContent} non-content pages left out; now ${result.pages} pages, ${result.chunks} chunks; ${result.seconds.toFixed(1)} s.`
  );
}

function report(verb: string, result: IngestResult, json: boolean | undefined, print: (s: string) => void) {
  print(json ? JSON.stringify(reportObject(result)) : reportLine(verb, result));
}

/** `--refresh 24h` → seconds, `off` → 0, `default` → null (SYNC_INTERVAL); absent → undefined (unchanged). */
function refreshOf(flags: SourceFlags): number | null | undefined {
  if (flags.refresh === undefined) return undefined;
  if (flags.refresh.trim().toLowerCase() === "default") return null;
  const seconds = parseInterval(flags.refresh);
  if (seconds === null)
    throw new UsageError(`--refresh must be a duration such as 30m, 24h or 7d, off (never), or default (SYNC_INTERVAL); got '${flags.refresh}'.`);
  return seconds;
}

/** One source synced from its origin under its lease; a failure is thrown as it happened. */
async function syncOne(services: AppServices, source: SourceInfo, holder: string): Promise<SyncRun> {
  return withProgress(
    runSync(services, source, {
      trigger: "manual",
      holder,
      documents: (conditional) => documentsOf(source, conditional, { allowInternal: services.config.CRAWL_ALLOW_INTERNAL }),
      timeLimitMs: services.config.SYNC_TIME_LIMIT * 1000,
      onProgress: progress(`Syncing "${source.name}"`),
    }),
  );
}

const refreshText = (s: SourceInfo) => (s.refreshSeconds === null || s.refreshSeconds === undefined ? "default" : formatInterval(s.refreshSeconds));
const lastSyncText = (summary: SyncSummary | null | undefined) =>
  !summary ? "-" : `${summary.status} ${summary.finishedAt.slice(0, 19).replace("T", " ")}Z${summary.error ? ` (${summary.error.code})` : ""}`;

function isWebUrl(text: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Runs a `sources` command; returns the exit code when it is not 0 (`sync --all` with failures). */
export async function sourcesCommand(
  services: AppServices,
  [action, ...rest]: string[],
  flags: SourceFlags,
  print: (s: string) => void,
  printError: (s: string) => void = print,
): Promise<number | undefined> {
  switch (action) {
    case "add": {
      const refresh = refreshOf(flags);
      const url = flags.url;
      if (!flags.name || !(url || (flags.dir && flags["base-url"]))) {
        throw new UsageError("sources add needs --name NAME and either --dir PATH --base-url URL or --url URL [--sitemap URL] [--max-pages N]");
      }
      // Flags of the other form would be ignored, as if they had done something.
      if (url && flags.dir) throw new UsageError("sources add takes either --dir PATH (a folder) or --url URL (a crawl), not both.");
      if (!url && (flags.sitemap !== undefined || flags["max-pages"] !== undefined))
        throw new UsageError("--sitemap and --max-pages are for a crawl: sources add --url URL [--sitemap URL] [--max-pages N].");
      for (const flag of ["url", "sitemap"] as const) {
        const given = flags[flag];
        if (given !== undefined && !isWebUrl(given)) throw new UsageError(`--${flag} must be an http or https URL; got '${given}'.`);
      }
      const maxPages = flags["max-pages"];
      if (maxPages !== undefined && !/^[1-9]\d*$/.test(maxPages)) throw new UsageError(`--max-pages must be a whole number of at least 1; got '${maxPages}'.`);
      const dir = flags.dir && path.resolve(flags.dir);
      // The same name again is a sync of that source: under its lease, like any other.
      const existing = await services.catalog.findByName(flags.name.trim());
      // Kept with the source: every later sync crawls as it was added (adding it again changes only what is given).
      const settings: CrawlSettings = {
        ...existing?.crawl,
        ...(maxPages && { maxPages: Number(maxPages) }),
        ...(flags.sitemap && { sitemap: flags.sitemap }),
      };
      const run = await withProgress(
        runSync(
          services,
          {
            id: existing?.id ?? null,
            name: flags.name,
            baseUrl: url ? (flags["base-url"] ?? folderOf(url)) : flags["base-url"]!,
            description: flags.description,
            origin: url ?? dir!,
          },
          {
            trigger: "add",
            holder: syncHolder(),
            documents: (conditional) =>
              url ? crawl({ url, ...settings, allowInternal: services.config.CRAWL_ALLOW_INTERNAL, ...conditional }) : listDocuments(dir!),
            timeLimitMs: services.config.SYNC_TIME_LIMIT * 1000,
            onProgress: progress(`${url ? "Crawling" : "Adding"} "${flags.name}"`),
          },
        ),
      );
      if (!run.result) throw run.error;
      if (refresh !== undefined) await services.catalog.setRefresh(run.result.source.id, refresh);
      if (url) await services.catalog.setCrawl(run.result.source.id, Object.keys(settings).length > 0 ? settings : null);
      report(existing ? "Updated" : "Added", run.result, flags.json, print);
      return;
    }
    case "sync": {
      const id = rest[0];
      if (Boolean(flags.all) === (id !== undefined)) throw new UsageError("sources sync needs the source's ID (see sources list), or --all");
      const holder = syncHolder();
      if (id) {
        const source = await services.catalog.get(id);
        if (!source) throw new UsageError(`No knowledge source with id ${id}.`);
        const run = await syncOne(services, source, holder);
        if (!run.result) throw run.error;
        report("Synced", run.result, flags.json, print);
        return;
      }
      // --all, for cron: every source in turn; one failing does not stop the others, but the exit code says so.
      const results: object[] = [];
      let failed = 0;
      for (const source of await services.catalog.list()) {
        let run: SyncRun;
        try {
          run = await syncOne(services, source, holder);
        } catch (error) {
          if (!(error instanceof SyncInProgressError)) throw error;
          failed++;
          results.push({ id: source.id, name: source.name, status: "busy", error: { code: "sync_in_progress", message: error.message } });
          if (!flags.json) printError(`docent: skipped "${source.name}" (id ${source.id}): ${error.message}`);
          continue;
        }
        if (run.result) {
          results.push({ status: "ok", ...reportObject(run.result) });
          if (!flags.json) print(reportLine("Synced", run.result));
        } else if (run.summary.error?.code === SOURCE_REMOVED) {
          // Removed since the list was read: nothing to sync, and no failure.
          results.push({ id: source.id, name: source.name, status: "removed" });
          if (!flags.json) print(`Skipped "${source.name}" (id ${source.id}): removed meanwhile.`);
        } else {
          failed++;
          results.push({ id: source.id, name: source.name, status: "failed", error: run.summary.error });
          if (!flags.json) printError(`docent: syncing "${source.name}" (id ${source.id}) failed: ${run.summary.error?.message}`);
        }
      }
      if (flags.json) print(JSON.stringify(results));
      else if (results.length === 0) print("No knowledge sources to sync.");
      return failed > 0 ? 1 : 0;
    }
    case "list": {
      const sources = await services.catalog.list();
      if (flags.json) {
        print(
          JSON.stringify(
            // The shape GET /v1/sources gives (scripts read both), plus the refresh interval only an operator sets.
            sources.map((s) => ({ ...sourceResource(s), refresh_seconds: s.refreshSeconds ?? null })),
          ),
        );
      } else {
        print(
          sources.length
            ? table(
                sources.map((s) => ({
                  id: s.id,
                  name: s.name,
                  pages: s.pages,
                  chunks: s.chunks,
                  refresh: refreshText(s),
                  last_sync: lastSyncText(s.lastSync),
                  base_url: s.baseUrl,
                })),
              )
            : "No knowledge sources yet. Add one with: npm run cli -- sources add --name NAME --dir PATH --base-url URL",
        );
      }
      return;
    }
    case "remove": {
      const id = rest[0];
      if (!id) throw new UsageError("sources remove needs the source's ID (see sources list)");
      const { removed, busy } = await removeSource(services, id, syncHolder());
      if (busy !== undefined) throw new SyncInProgressError(id, busy);
      if (!removed) throw new UsageError(`No knowledge source with id ${id}.`);
      print(flags.json ? JSON.stringify({ id, removed: true }) : `Removed source ${id}.`);
      return;
    }
    default:
      throw new UsageError(
        "sources: use add --name NAME (--dir PATH --base-url URL | --url URL [--sitemap URL] [--max-pages N]) [--description TEXT] [--refresh 24h|off|default] [--json] | sync (ID | --all) [--json] | list [--json] | remove ID",
      );
  }
}
