import { randomBytes, randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Embedder } from "../core/embedder.ts";
import { DocentError } from "../core/errors.ts";
import type { IndexWriter, PageReader } from "../core/retriever.ts";
import type { SourceCatalog } from "../core/source-catalog.ts";
import type { PageValidator, PageValidatorStore, SyncLeases, SyncSummary } from "../core/source-sync.ts";
import { extractionBasis, type IngestResult, ingestDocuments } from "../ingest/ingest-documents.ts";
import type { SourceDocument } from "../ingest/list-documents.ts";
import { formatInterval } from "./interval.ts";

export interface SyncDeps {
  catalog: SourceCatalog;
  writer: IndexWriter;
  readPage?: PageReader;
  embedder?: Embedder;
  syncLeases: SyncLeases;
  pageValidators: PageValidatorStore;
}

/** What a crawl needs to ask only for changed pages. */
export interface Conditional {
  validators: ReadonlyMap<string, PageValidator>;
  basis: string;
  signal?: AbortSignal;
}

/** A source to (re)read: an existing one (its id) or a new one (null). */
export interface SyncTarget {
  id: string | null;
  name: string;
  baseUrl: string;
  description?: string;
  origin: string;
}

export interface SyncRun {
  summary: SyncSummary;
  /** The ingestion's result when it succeeded. */
  result?: IngestResult;
  /** Why it failed, when it did. */
  error?: unknown;
  /** Whether its summary reached the catalog (the next sync's time is counted from it). */
  recorded: boolean;
}

/** Someone else (another process or instance) is syncing the source now. */
export class SyncInProgressError extends Error {
  constructor(
    readonly sourceId: string,
    readonly holder: string | null,
  ) {
    super(`The source ${sourceId} is being synced${holder ? ` by ${holder}` : ""}; try again when that sync has finished.`);
    this.name = "SyncInProgressError";
  }
}

/** A name for this process as a lease holder: which host and process holds a source's sync. */
export const syncHolder = () => `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

export const DEFAULT_LEASE_MS = 120_000;

/**
 * Reads a source from its origin and indexes what changed, as one sync:
 * under the source's lease (renewed while it runs; a lost lease stops it), a
 * crawl asking only for pages changed since the stored validators, the
 * summary recorded with the source whether it succeeded or failed.
 */
export async function runSync(
  deps: SyncDeps,
  target: SyncTarget,
  {
    trigger,
    holder,
    documents,
    signal,
    leaseMs = DEFAULT_LEASE_MS,
    timeLimitMs = 0,
    onProgress,
  }: {
    trigger: SyncSummary["trigger"];
    holder: string;
    documents: (conditional: Conditional) => SourceDocument[] | AsyncIterable<SourceDocument>;
    signal?: AbortSignal;
    leaseMs?: number;
    /** SYNC_TIME_LIMIT: a sync running longer is stopped and recorded as failed, the source keeping what it had (0: none). */
    timeLimitMs?: number;
    onProgress?: (done: number, total: number | null) => void;
  },
): Promise<SyncRun> {
  if (target.id && !(await deps.syncLeases.acquire(target.id, holder, leaseMs))) {
    throw new SyncInProgressError(target.id, (await deps.syncLeases.holder(target.id))?.holder ?? null);
  }
  // A new source's id is chosen here and leased before any of its passages are written, until its catalog row is:
  // a crash in between leaves passages that removeOrphanSources can tell from an add still under way.
  const newId = target.id ? undefined : randomUUID();
  if (newId) await deps.syncLeases.acquire(newId, holder, leaseMs);
  const leased = target.id ?? newId!;
  const started = new Date();
  const controller = new AbortController();
  const stop = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", stop, { once: true });
  const heartbeat = setInterval(() => void renew(leased), leaseMs / 3);
  heartbeat?.unref();
  // One slow site (each answer just inside its own deadline) must not hold the schedule, and every other source's sync, for hours.
  // Node fires a timer set past 2^31 - 1 ms (24.8 days) at once: a longer limit waits that long, which is no limit in practice.
  const deadline = timeLimitMs > 0 ? setTimeout(() => controller.abort(syncTimeLimitError(timeLimitMs)), Math.min(timeLimitMs, 2 ** 31 - 1)) : undefined;
  deadline?.unref();
  async function renew(id: string) {
    // A lease lost (the database unreachable past its time to live) means someone else may sync now: stop.
    const kept = await deps.syncLeases.renew(id, holder, leaseMs).catch(() => false);
    if (!kept)
      controller.abort(
        new DocentError("SERVICE_UNAVAILABLE", "The sync stopped: its lease was lost (the database could not be reached in time).", {
          reason: "sync_lease_lost",
        }),
      );
  }

  const basis = extractionBasis(target.baseUrl);
  const fetched = new Map<string, PageValidator>();
  let id = target.id;
  try {
    const validators = id ? await usableValidators(deps, id, basis) : new Map<string, PageValidator>();
    async function* tracked() {
      for await (const doc of documents({ validators, basis, signal: controller.signal })) {
        controller.signal.throwIfAborted();
        if (doc.validator && doc.url) fetched.set(doc.url, doc.validator);
        yield doc;
      }
    }
    const result = await ingestDocuments(deps, {
      id: target.id ?? undefined,
      newId,
      name: target.name,
      baseUrl: target.baseUrl,
      description: target.description,
      origin: target.origin,
      documents: tracked(),
      onProgress,
    });
    id = result.source.id;
    // Validators of the pages now indexed, for the next sync's conditional requests.
    // The index has changed by now: storing them failing leaves the next sync to download every page, not this one failed.
    await deps.writer
      .pageHashes(id)
      .then((indexed) => deps.pageValidators.replace(id!, new Map([...fetched].filter(([url]) => indexed.has(url)))))
      .catch(() => {});
    const summary = summarise(trigger, started, { status: "ok", result });
    await deps.catalog.recordSync(id, summary);
    return { summary, result, recorded: true };
  } catch (error) {
    const summary = summarise(trigger, started, { status: "failed", error, origin: target.origin });
    // Stopped from outside (the server stopping): nothing was tried to the end, so nothing is recorded.
    const recorded =
      Boolean(id && !signal?.aborted) &&
      (await deps.catalog.recordSync(id!, summary).then(
        () => true,
        () => false,
      ));
    return { summary, error, recorded };
  } finally {
    clearInterval(heartbeat);
    clearTimeout(deadline);
    signal?.removeEventListener("abort", stop);
    await deps.syncLeases.release(leased, holder).catch(() => {});
  }
}

const syncTimeLimitError = (ms: number) =>
  new DocentError(
    "GATEWAY_TIMEOUT",
    `The sync was stopped after ${ms >= 1000 ? formatInterval(Math.round(ms / 1000)) : `${ms} ms`} (SYNC_TIME_LIMIT); the source keeps what it had.`,
    {
      reason: "sync_time_limit",
    },
  );

/** The stored validators that still describe what is indexed (same basis, page still there). */
async function usableValidators(deps: SyncDeps, id: string, basis: string): Promise<Map<string, PageValidator>> {
  const [stored, indexed] = await Promise.all([deps.pageValidators.load(id), deps.writer.pageHashes(id)]);
  return new Map([...stored].filter(([url, v]) => v.basis === basis && indexed.has(url)));
}

function summarise(
  trigger: SyncSummary["trigger"],
  started: Date,
  outcome: { status: "ok"; result: IngestResult } | { status: "failed"; error: unknown; origin: string },
): SyncSummary {
  const finished = new Date();
  const r = outcome.status === "ok" ? outcome.result : null;
  return {
    status: outcome.status,
    trigger,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    seconds: Math.round((finished.getTime() - started.getTime()) / 100) / 10,
    added: r?.added ?? 0,
    changed: r?.changed ?? 0,
    removed: r?.removed ?? 0,
    unchanged: r?.unchanged ?? 0,
    notModified: r?.notModified ?? 0,
    skipped: r?.skipped ?? 0,
    pages: r?.pages ?? 0,
    chunks: r?.chunks ?? 0,
    error: outcome.status === "failed" ? describeFailure(outcome.error, outcome.origin) : null,
  };
}

/** A failure as callers may see it: a code, and a message in which a local folder is never named. */
function describeFailure(error: unknown, origin: string): { code: string; message: string } {
  const docent = error instanceof DocentError ? error : null;
  const aborted = (error as Error)?.name === "AbortError";
  const code = docent?.reason ?? docent?.code ?? (aborted ? "aborted" : "sync_failed");
  // Only docent's own errors say what went wrong in words meant for callers; anything else (a database's, the runtime's) is internal.
  let message = docent || aborted ? ((error as Error).message ?? String(error)) : "The sync failed unexpectedly; the server's log has the details.";
  if (!/^https?:\/\//.test(origin) && origin) message = message.split(origin).join("the source's folder");
  return { code, message: message.slice(0, 500) };
}
