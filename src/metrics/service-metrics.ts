import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { CompletionObserver, CompletionOutcome } from "../core/completion-outcome.ts";
import type { SourceCatalog } from "../core/source-catalog.ts";
import type { SyncSummary } from "../core/source-sync.ts";
import type { RequestRecord } from "../http/observe-requests.ts";

/** Request latencies run from milliseconds (an error, a list) to minutes (a long provider answer). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const RETRIEVAL_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The service's Prometheus metrics, in a registry of its own. Labels are
 * bounded: route patterns (never raw paths), the door, the status, the
 * public model names and configured provider models, and the catalog's
 * sources; never a key, a question or a URL.
 */
export function createServiceMetrics({ catalog }: { catalog: Pick<SourceCatalog, "list"> }) {
  const registry = new Registry();
  const registers = [registry];

  const requestLabels = ["route", "interface", "status", "model"] as const;
  const requests = new Counter({
    name: "docent_http_requests_total",
    help: "HTTP requests by route pattern, interface, status and model asked for.",
    labelNames: requestLabels,
    registers,
  });
  const requestSeconds = new Histogram({
    name: "docent_http_request_duration_seconds",
    help: "HTTP request duration, to the end of the response (streams included).",
    labelNames: requestLabels,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const rateLimited = new Counter({
    name: "docent_rate_limit_rejections_total",
    help: "Requests refused by a key's rate or concurrency limit.",
    labelNames: ["interface"],
    registers,
  });

  const completions = new Counter({
    name: "docent_completions_total",
    help: "Completions by model asked for, how they ended and whether the sources covered the question.",
    labelNames: ["model", "status", "refused"],
    registers,
  });
  const refusals = new Counter({
    name: "docent_refusals_total",
    help: "Questions the knowledge sources were taken not to cover (no references).",
    labelNames: ["model", "interface"],
    registers,
  });
  const tokens = new Counter({
    name: "docent_tokens_total",
    help: "Tokens in (prompt) and out (completion).",
    labelNames: ["model", "provider", "direction"],
    registers,
  });
  const providerSeconds = new Histogram({
    name: "docent_provider_duration_seconds",
    help: "From the end of retrieval to the model's last token.",
    labelNames: ["provider", "provider_model"],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const firstTokenSeconds = new Histogram({
    name: "docent_time_to_first_token_seconds",
    help: "From the start of a completion to its first text.",
    labelNames: ["model"],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const retrievalSeconds = new Histogram({
    name: "docent_retrieval_duration_seconds",
    help: "Choosing sources and retrieving passages, per completion.",
    buckets: RETRIEVAL_BUCKETS,
    registers,
  });

  // Source gauges are read from the catalog at scrape time: one listing serves all of them.
  let listing: Promise<Awaited<ReturnType<SourceCatalog["list"]>>> | null = null;
  const sources = () => {
    listing ??= catalog.list().finally(() => setImmediate(() => (listing = null)));
    return listing;
  };
  new Gauge({
    name: "docent_source_pages",
    help: "Pages indexed per knowledge source.",
    labelNames: ["source_id", "source"],
    registers,
    async collect() {
      this.reset();
      for (const s of await sources()) this.set({ source_id: s.id, source: s.name }, s.pages);
    },
  });
  new Gauge({
    name: "docent_source_chunks",
    help: "Passages indexed per knowledge source.",
    labelNames: ["source_id", "source"],
    registers,
    async collect() {
      this.reset();
      for (const s of await sources()) this.set({ source_id: s.id, source: s.name }, s.chunks);
    },
  });

  new Gauge({
    name: "docent_source_last_sync_timestamp_seconds",
    help: "When each source was last read from its origin successfully (Unix seconds; absent before its first recorded sync).",
    labelNames: ["source_id", "source"],
    registers,
    async collect() {
      this.reset();
      for (const s of await sources()) if (s.lastSyncedAt) this.set({ source_id: s.id, source: s.name }, s.lastSyncedAt.getTime() / 1000);
    },
  });
  new Gauge({
    name: "docent_source_last_sync_ok",
    help: "1 when a source's last sync succeeded, 0 when it failed.",
    labelNames: ["source_id", "source"],
    registers,
    async collect() {
      this.reset();
      for (const s of await sources()) if (s.lastSync) this.set({ source_id: s.id, source: s.name }, s.lastSync.status === "ok" ? 1 : 0);
    },
  });
  const syncs = new Counter({
    name: "docent_source_syncs_total",
    help: "Syncs this server ran on its schedule, by result.",
    labelNames: ["status"],
    registers,
  });
  const syncPages = new Counter({
    name: "docent_source_sync_pages_total",
    help: "Pages seen by this server's scheduled syncs: added, changed, removed, unchanged (downloaded, same content) and not_modified (304, not downloaded).",
    labelNames: ["result"],
    registers,
  });

  const modelOf = (outcomes: readonly CompletionOutcome[]) => (outcomes.length === 0 ? "none" : [...new Set(outcomes.map((o) => o.model))].sort().join(","));

  const observer: CompletionObserver = {
    onCompletion(o) {
      const refused = o.grounding?.refused === true;
      completions.inc({ model: o.model, status: o.status, refused: String(refused) });
      if (refused) refusals.inc({ model: o.model, interface: o.interface });
      tokens.inc({ model: o.model, provider: o.provider, direction: "in" }, o.usage.promptTokens);
      tokens.inc({ model: o.model, provider: o.provider, direction: "out" }, o.usage.completionTokens);
      if (o.timings.firstTokenMs !== null) firstTokenSeconds.observe({ model: o.model }, o.timings.firstTokenMs / 1000);
      if (o.grounding) retrievalSeconds.observe(o.grounding.retrievalMs / 1000);
      // A refusal's fixed reply calls no provider; a model that declined was called.
      if (o.grounding && (!refused || o.grounding.byModel) && o.status === "completed")
        providerSeconds.observe({ provider: o.provider, provider_model: o.modelId }, Math.max(0, o.timings.totalMs - o.grounding.retrievalMs) / 1000);
    },
  };

  let processMetrics = false;
  return {
    registry,
    /** Node's own metrics (CPU, memory, event loop, GC): for a server, not a one-shot CLI command. */
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry });
    },
    /** Registered among the completion observers. */
    observer,
    /** Told of each sync the server's schedule ran. */
    onSync(summary: SyncSummary) {
      syncs.inc({ status: summary.status });
      syncPages.inc({ result: "added" }, summary.added);
      syncPages.inc({ result: "changed" }, summary.changed);
      syncPages.inc({ result: "removed" }, summary.removed);
      syncPages.inc({ result: "unchanged" }, summary.unchanged - summary.notModified);
      syncPages.inc({ result: "not_modified" }, summary.notModified);
    },
    /** Listens to every request's end. */
    onRequest(record: RequestRecord) {
      const labels = { route: record.route, interface: record.interface, status: String(record.status), model: modelOf(record.outcomes) };
      requests.inc(labels);
      requestSeconds.observe(labels, record.durationMs / 1000);
      if (record.errorCode === "rate_limit_exceeded") rateLimited.inc({ interface: record.interface });
    },
  };
}

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>;
