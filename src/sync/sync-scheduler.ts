import { syncResource } from "../core/resources.ts";
import type { SourceInfo } from "../core/source-catalog.ts";
import type { SyncSummary } from "../core/source-sync.ts";
import { SOURCE_REMOVED } from "../ingest/ingest-documents.ts";
import type { Logger } from "../logging/logger.ts";
import { documentsOf } from "./documents-of.ts";
import { formatInterval } from "./interval.ts";
import { DEFAULT_LEASE_MS, runSync, type SyncDeps, SyncInProgressError } from "./run-sync.ts";

export interface SchedulerOptions {
  deps: SyncDeps;
  logger: Logger;
  /** SYNC_INTERVAL in seconds; 0: only sources with their own interval are synced. */
  defaultSeconds: number;
  holder: string;
  /** Told of every sync this scheduler ran (metrics). */
  onSync?: (summary: SyncSummary, source: SourceInfo) => void;
  now?: () => number;
  /** The longest wait between looks at the catalog, so sources added or changed elsewhere are noticed. */
  maxWaitMs?: number;
  leaseMs?: number;
  /** SYNC_TIME_LIMIT in ms (0: none). */
  timeLimitMs?: number;
  /** CRAWL_ALLOW_INTERNAL. */
  allowInternal?: boolean;
}

/** How often a source is synced, in seconds; null: never. */
export function intervalOf(source: SourceInfo, defaultSeconds: number): number | null {
  const seconds = source.refreshSeconds ?? defaultSeconds;
  return seconds > 0 ? seconds : null;
}

/**
 * When a source is next due (ms since the epoch), from what the database
 * says of its last sync, so the schedule survives restarts and is shared by
 * every instance: the later of its last successful sync and its last attempt
 * (a failed one waits a whole interval too), else when it was last written.
 */
export function dueAt(source: SourceInfo, defaultSeconds: number): number | null {
  const seconds = intervalOf(source, defaultSeconds);
  if (seconds === null) return null;
  const attempts = [source.lastSyncedAt?.getTime(), source.lastSync ? Date.parse(source.lastSync.finishedAt) : undefined].filter((t): t is number =>
    Number.isFinite(t),
  );
  const last = attempts.length > 0 ? Math.max(...attempts) : source.updatedAt.getTime();
  return last + seconds * 1000;
}

/**
 * The in-server schedule: syncs each due source, one at a time, each under
 * its lease (another process or instance syncing it is skipped until its
 * lease ends). Sleeps until the next source is due, at most `maxWaitMs`.
 */
export function startSyncScheduler({
  deps,
  logger,
  defaultSeconds,
  holder,
  onSync,
  now = Date.now,
  maxWaitMs = 60_000,
  leaseMs = DEFAULT_LEASE_MS,
  timeLimitMs = 0,
  allowInternal = false,
}: SchedulerOptions) {
  const controller = new AbortController();
  // In this process only: a source busy elsewhere, or whose attempt could not be recorded, is not retried at once.
  const notBefore = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;

  async function syncOne(source: SourceInfo) {
    notBefore.set(source.id, now() + Math.min(leaseMs, maxWaitMs));
    try {
      const run = await runSync(deps, source, {
        trigger: "schedule",
        holder,
        documents: (conditional) => documentsOf(source, conditional, { allowInternal }),
        signal: controller.signal,
        leaseMs,
        timeLimitMs,
      });
      const { summary } = run;
      // Ran and recorded: its next time is its interval's, however short, not this process's retry pause
      // (which stays when the catalog could not take the summary: its due time would still be the old one).
      if (run.recorded) notBefore.delete(source.id);
      // Removed since the list was read: nothing was synced, and nothing is to be said.
      if (summary.error?.code === SOURCE_REMOVED) return void logger.debug({ source_id: source.id }, "sync skipped: source removed");
      onSync?.(summary, source);
      // In the words of GET /v1/sources' last_sync, with the source's size after it.
      const line = {
        source_id: source.id,
        source: source.name,
        interval: formatInterval(intervalOf(source, defaultSeconds) ?? 0),
        ...syncResource(summary),
        pages: summary.pages,
        chunks: summary.chunks,
      };
      if (summary.status === "ok") logger.info(line, "sync");
      else logger.error({ ...line, err: run.error }, "sync failed");
    } catch (error) {
      if (error instanceof SyncInProgressError) {
        const lease = await deps.syncLeases.holder(source.id).catch(() => null);
        notBefore.set(source.id, lease ? lease.expiresAt.getTime() : now() + maxWaitMs);
        logger.debug({ source_id: source.id, holder: error.holder }, "sync skipped: being synced elsewhere");
      } else logger.error({ source_id: source.id, err: error }, "sync failed");
    }
  }

  async function tick() {
    let next = now() + maxWaitMs;
    try {
      const sources = await deps.catalog.list();
      const due = (s: SourceInfo) => {
        const at = dueAt(s, defaultSeconds);
        return at === null ? null : Math.max(at, notBefore.get(s.id) ?? 0);
      };
      for (const source of sources.filter((s) => (due(s) ?? Infinity) <= now()).sort((a, b) => due(a)! - due(b)!)) {
        if (controller.signal.aborted) return;
        await syncOne(source);
      }
      // Look again when the next source is due (the list as it is now: syncs moved their times).
      for (const source of await deps.catalog.list()) {
        const at = due(source);
        if (at !== null) next = Math.min(next, at);
      }
    } catch (error) {
      logger.error({ err: error }, "sync schedule: could not read the catalog");
    }
    if (controller.signal.aborted) return;
    const wait = Math.max(250, next - now());
    logger.debug({ next_look_in_ms: wait }, "sync schedule");
    schedule(wait);
  }

  function schedule(ms: number) {
    timer = setTimeout(() => {
      running = tick().finally(() => (running = null));
    }, ms);
    timer.unref();
  }
  schedule(0);

  return {
    /** Stops the schedule; a sync under way is aborted (the index keeps its previous state) and awaited. */
    async stop() {
      controller.abort(new Error("the server is stopping"));
      clearTimeout(timer);
      await running;
    },
  };
}

export type SyncScheduler = ReturnType<typeof startSyncScheduler>;
