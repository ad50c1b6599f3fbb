import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logging/logger.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { type ChangingSite, startChangingSite } from "./support/changing-site.ts";
import { runCliProcess } from "./support/cli-process.ts";
import { parseMetrics } from "./support/prometheus.ts";
import { tempDir } from "./support/test-server.ts";

const words = (topic: string) =>
  `<p>${topic} This page of the Kestrel manual explains the feature in plain words, with the settings an operator changes most often, the defaults that ship with it, and what happens when a value is out of range.</p><p>Each setting is read once at start-up; a change needs a restart, and the log says which value was used.</p>`;
const PAGES = {
  "/docs/": {
    title: "Kestrel manual",
    body: `${words("Kestrel is a small queue server.")}<p>Read the <a href="guide.html">guide</a> or the <a href="reference.html">reference</a>.</p>`,
  },
  "/docs/guide.html": { title: "Kestrel guide", body: `${words("The guide walks through a first queue.")}<p>Then see <a href="tuning.html">tuning</a>.</p>` },
  "/docs/reference.html": { title: "Kestrel reference", body: words("The reference lists every command of the queue server.") },
  // Linked only from the guide: a 304 for the guide must still lead the crawl here.
  "/docs/tuning.html": { title: "Kestrel tuning", body: words("Tuning explains batch sizes and flush intervals.") },
};
const PAGE_PATHS = new Set(Object.keys(PAGES));

/** Records the site answered for pages (robots.txt and sitemap.xml aside). */
const pageHits = (site: ChangingSite, from: number) => site.since(from).filter((r) => PAGE_PATHS.has(r.path));

async function until<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Fresh sources end to end: `sources add --url … --refresh`, `sources sync
 * --all` for cron, the server's schedule, conditional requests against a
 * local site that changes between runs, one sync per source at a time
 * across processes, and a schedule that survives restarts.
 */
describe("fresh sources", () => {
  let site: ChangingSite;
  let dataDir: string;
  let server: RunningServer | undefined;
  let sourceId: string;
  const lines: string[] = [];
  const records = () => lines.map((l) => JSON.parse(l) as Record<string, any>);

  const cli = (...args: string[]) => runCliProcess({ DATA_DIR: dataDir }, ...args);
  const start = async () => {
    const logger = createLogger(loadConfig({ LOG_LEVEL: "debug" }), { destination: { write: (l: string) => void lines.push(l) } });
    server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "0" }), { log: () => {}, logger });
    return server;
  };
  const lastSync = async () => (await server!.services.catalog.get(sourceId))!.lastSync;

  beforeAll(async () => {
    site = await startChangingSite(PAGES);
    dataDir = tempDir();
  });
  afterAll(async () => {
    await server?.close();
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("sources add --url crawls every page once and stores a refresh interval", async () => {
    const added = await cli("sources", "add", "--name", "Kestrel", "--url", `${site.url}/docs/`, "--refresh", "1s", "--json");
    expect(added.code).toBe(0);
    const result = JSON.parse(added.stdout);
    sourceId = result.id;
    expect(result).toMatchObject({ added: 4, pages: 4, not_modified: 0 });
    expect(pageHits(site, 0).every((r) => r.status === 200 && !r.conditional)).toBe(true);
    const listed = JSON.parse((await cli("sources", "list", "--json")).stdout);
    expect(listed).toEqual([
      expect.objectContaining({ id: sourceId, refresh_seconds: 1, last_sync: expect.objectContaining({ status: "ok", trigger: "add", added: 4 }) }),
    ]);
  });

  it("sources sync --all asks only for changed pages: unchanged ones answer 304 and are not downloaded", async () => {
    const from = site.requests;
    const synced = await cli("sources", "sync", "--all", "--json");
    expect(synced.code).toBe(0);
    expect(JSON.parse(synced.stdout)).toEqual([
      expect.objectContaining({ id: sourceId, status: "ok", added: 0, changed: 0, removed: 0, unchanged: 4, not_modified: 4, pages: 4 }),
    ]);
    const hits = pageHits(site, from);
    // Every page was asked for (tuning.html through the guide's stored links), conditionally, and none was sent again.
    expect(new Set(hits.map((r) => r.path))).toEqual(PAGE_PATHS);
    expect(hits.every((r) => r.conditional && r.status === 304)).toBe(true);
  });

  it("the server's schedule syncs a changed site: one page downloaded, the rest 304, the summary logged, in /v1/sources and in /metrics", async () => {
    site.change(
      "/docs/guide.html",
      "Kestrel guide",
      `${words("The guide now covers dead-letter queues and the quarantine command.")}<p>Then see <a href="tuning.html">tuning</a>.</p>`,
    );
    const from = site.requests;
    await start();
    // The last sync was the CLI's (manual): the next one is the schedule's.
    const summary = await until("a scheduled sync", async () => {
      const s = await lastSync();
      return s?.trigger === "schedule" && s;
    });
    // Quiet the schedule before looking: one sync is what is checked here.
    await server!.services.catalog.setRefresh(sourceId, 3600);
    expect(summary).toMatchObject({ status: "ok", changed: 1, added: 0, removed: 0, unchanged: 3, notModified: 3 });
    const downloaded = pageHits(site, from).filter((r) => r.status === 200);
    expect(downloaded.map((r) => r.path)).toEqual(["/docs/guide.html"]);
    expect((await server!.services.retrieve({ query: "quarantine dead-letter", limit: 5 })).chunks[0]?.url).toBe(`${site.url}/docs/guide.html`);

    const logged = records().find((r) => r.msg === "sync" && r.trigger === "schedule" && r.changed === 1);
    expect(logged).toMatchObject({ level: 30, source_id: sourceId, source: "Kestrel", status: "ok", not_modified: 3, interval: "1s" });

    const key = (await server!.services.keys.create("reader")).key;
    const listed = await (await fetch(`${server!.url}/v1/sources`, { headers: { authorization: `Bearer ${key}` } })).json();
    const resource = listed.data.find((s: { id: string }) => s.id === sourceId);
    expect(resource.last_sync).toMatchObject({ status: "ok", trigger: "schedule", changed: 1, not_modified: 3, error: null });
    expect(resource.last_synced_at).toBe(resource.last_sync.finished_at);
    // The CLI's list is the same resource, for scripts that read either, with the refresh interval an operator set.
    const cliListed = JSON.parse((await cli("sources", "list", "--json")).stdout);
    expect(cliListed).toEqual([{ ...resource, refresh_seconds: 3600 }]);

    const metrics = parseMetrics(await (await fetch(`${server!.url}/metrics`)).text());
    expect(metrics.value("docent_source_syncs_total", { status: "ok" })).toBeGreaterThanOrEqual(1);
    expect(metrics.value("docent_source_sync_pages_total", { result: "not_modified" })).toBeGreaterThanOrEqual(3);
    expect(Math.floor(metrics.value("docent_source_last_sync_timestamp_seconds", { source_id: sourceId }))).toBe(resource.last_synced_at);
  });

  it("keeps an interval under a minute: scheduled syncs a second apart, not a minute", async () => {
    await server!.services.catalog.setRefresh(sourceId, 1);
    await server!.close();
    const since = new Date().toISOString();
    await start();
    try {
      // This server's first (the source is overdue at its start), then its next.
      const first = await until("a scheduled sync", async () => {
        const s = await lastSync();
        return s?.trigger === "schedule" && s.finishedAt > since && s;
      });
      await until(
        "the next scheduled sync",
        async () => {
          const s = await lastSync();
          return s?.trigger === "schedule" && s.finishedAt > first.finishedAt;
        },
        8000,
      );
    } finally {
      await server!.services.catalog.setRefresh(sourceId, 3600);
    }
  });

  it("never runs two syncs of one source at once: a CLI sync while the server syncs is refused", async () => {
    // Due again, and a site that holds its answers: the restarted server's schedule syncs at once and keeps the lease until released.
    await server!.services.catalog.setRefresh(sourceId, 1);
    await server!.close();
    const release = site.hold();
    try {
      await start();
      const holder = await until("the server's sync to take the lease", () => server!.services.syncLeases.holder(sourceId));
      const refused = await cli("sources", "sync", sourceId);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`The source ${sourceId} is being synced by ${holder.holder}`);
    } finally {
      release();
    }
    await until("the server's sync to end", async () => !(await server!.services.syncLeases.holder(sourceId)));
    await server!.services.catalog.setRefresh(sourceId, 3600);
  });

  it("keeps its schedule across restarts: a source synced recently waits, an overdue one is synced at start", async () => {
    // Stopping waits for (or stops) a sync under way, so nothing runs between the two servers.
    await server!.close();
    const from = site.requests;
    const seen = lines.length;
    await start();
    // The schedule has looked at the catalog and found nothing due (refresh 1h, synced seconds ago).
    await until("the schedule's first look", async () => lines.slice(seen).some((l) => JSON.parse(l).msg === "sync schedule"));
    expect(site.requests).toBe(from);

    // The database says the last sync was two hours ago: the next start syncs at once.
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const stale = { ...(await lastSync())!, startedAt: twoHoursAgo, finishedAt: twoHoursAgo };
    await server!.services.catalog.recordSync(sourceId, stale);
    await server!.close();
    await start();
    const resumed = await until("the overdue sync", async () => {
      const s = await lastSync();
      return s && s.finishedAt !== twoHoursAgo && s;
    });
    expect(resumed).toMatchObject({ status: "ok", trigger: "schedule", notModified: 4 });
    expect(site.requests).toBeGreaterThan(from);
  });
});
