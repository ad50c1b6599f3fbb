import { createApp, type HealthStatus } from "./app.ts";
import { type AppServices, createServices } from "./app-services.ts";
import type { Config } from "./config.ts";
import { ensureDemoSource } from "./demo-source.ts";
import { FIRST_KEY_FILE, firstKeyBanner, writeFirstKeyFile } from "./first-key.ts";
import { type Listener, listen } from "./listener.ts";
import { createLogger, type Logger } from "./logging/logger.ts";
import { StartupError, systemReason } from "./startup-error.ts";
import { removeOrphanSources } from "./sync/orphan-sources.ts";
import { syncHolder } from "./sync/run-sync.ts";
import { startSyncScheduler } from "./sync/sync-scheduler.ts";

export interface RunningServer {
  /** Base URL of the service, e.g. http://127.0.0.1:8787 */
  url: string;
  services: AppServices;
  /** The key created on a first start, shown once. */
  firstKey: string | null;
  /**
   * Stops: no new connections, /healthz answers 503, requests in flight get
   * up to `graceMs` (default 0: cut at once) to finish; then the services close.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface StartOptions {
  /** Where the first API key is shown, once, to the person starting the service (never to the logger). */
  log?: (line: string) => void;
  /**
   * `banner` (default): the first key is shown through `log`. `file`: nobody is at a terminal (a container, a
   * service manager: standard output is a log someone keeps), so it goes to DATA_DIR/first-api-key, readable by
   * this user only, and the log says where, never what.
   */
  firstKeyTo?: "banner" | "file";
  /** Structured logs: start-up, one line per request, errors (default: stdout at LOG_LEVEL). */
  logger?: Logger;
}

/** Starts the service: services, HTTP listener, demo source, first key. */
export async function startServer(
  config: Config,
  { log = (line: string) => console.log(line), logger = createLogger(config), firstKeyTo = "banner" }: StartOptions = {},
): Promise<RunningServer> {
  const services = await createServices(config, { logger });
  services.metrics.collectProcessMetrics();
  let health: HealthStatus = "starting";
  const app = createApp(services, { health: () => health });
  let listener: Listener;
  try {
    listener = await listen(app.fetch, { port: config.PORT, host: config.HOST });
  } catch (error) {
    await services.close();
    throw error;
  }
  const { port } = listener;
  const host = config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST === "0.0.0.0" ? "127.0.0.1" : config.HOST;
  const url = `http://${host}:${port}`;
  const publicUrl = config.PUBLIC_URL ?? url;

  // Passages a crashed add or remove left without a source: nothing cites them, but they take search slots.
  try {
    const orphans = await removeOrphanSources(services);
    if (orphans.length > 0) logger.warn({ source_ids: orphans }, `docent: removed the passages of ${orphans.length} source(s) the catalog does not know.`);
  } catch (error) {
    logger.warn({ err: error }, "docent: could not look for passages without a source");
  }
  if (config.DOCENT_DEMO) {
    // The demo is a convenience: if it cannot be built (say, the embeddings service is down), serve without it.
    try {
      const demo = await ensureDemoSource(services, publicUrl);
      if (demo)
        logger.info(
          { source_id: demo.source.id, pages: demo.pages, chunks: demo.chunks },
          `docent: demo source "${demo.source.name}" ready (${demo.pages} pages, ${demo.chunks} chunks).`,
        );
    } catch (error) {
      logger.warn({ err: error }, `docent: the demo source could not be ingested (${(error as Error).message}); serving without it.`);
    }
  }
  let firstKey: string | null = null;
  let closing: Promise<void> | undefined;
  // Made once for the store: replicas starting together against one database do not each make (and file away) one.
  const created = await services.keys.createFirst("first-run");
  if (created) {
    firstKey = created.key;
    // With no source yet (DOCENT_DEMO=0), a question would only be told so: the first step is adding one.
    const noSource = (await services.catalog.list()).length === 0;
    if (firstKeyTo === "file") {
      try {
        writeFirstKeyFile(config.DATA_DIR, created.key);
      } catch (error) {
        // A key nobody can read is no key: it is revoked, and the operator is told how to make one.
        await services.keys.revoke(created.id).catch(() => {});
        await Promise.all([listener.stop(0), services.close()]).catch(() => {});
        throw new StartupError(
          `could not write the first API key to ${FIRST_KEY_FILE} in DATA_DIR (${systemReason(error) ?? (error as Error).message}); it was revoked. Make a key with the CLI: keys create --name NAME (a start with a key already made, revoked or not, makes none).`,
          { cause: error },
        );
      }
      logger.warn(
        { file: FIRST_KEY_FILE },
        `docent: created the first API key; it is in ${FIRST_KEY_FILE} in DATA_DIR, readable by this user only (never in the log): read it, keep it, delete the file.${noSource ? " There is no knowledge source yet: add one with the CLI's sources add." : ""}`,
      );
    } else log(firstKeyBanner(created.key, url, noSource));
  }
  // Fresh sources: each due one is synced in the background (SYNC_INTERVAL, or a source's own --refresh).
  const scheduler = startSyncScheduler({
    deps: services,
    logger,
    defaultSeconds: config.SYNC_INTERVAL,
    timeLimitMs: config.SYNC_TIME_LIMIT * 1000,
    allowInternal: config.CRAWL_ALLOW_INTERNAL,
    holder: syncHolder(),
    onSync: (summary) => services.metrics.onSync(summary),
  });
  health = "ok";
  logger.info(
    { url, public_url: publicUrl },
    `docent: serving ${url}/v1 (models: ${services.models
      .list()
      .map((m) => `${m.id} → ${m.resolvesTo}${m.available ? "" : " (not configured)"}`)
      .join(", ")})`,
  );

  return {
    url,
    services,
    firstKey,
    close({ graceMs = 0 } = {}) {
      health = "draining";
      closing ??= Promise.all([listener.stop(graceMs), scheduler.stop()]).then(() => services.close());
      return closing;
    },
  };
}
