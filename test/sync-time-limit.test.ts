import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChangingSite, startChangingSite } from "./support/changing-site.ts";
import { runCliProcess } from "./support/cli-process.ts";
import { tempDir } from "./support/test-server.ts";

const body = (topic: string) =>
  `<p>${topic} This page of the Wren manual explains the feature in plain words, with the settings an operator changes most often and their defaults.</p>`;
const PAGES = {
  "/docs/": { title: "Wren manual", body: `${body("Wren is a small cache.")}<p><a href="guide.html">Guide</a>, <a href="reference.html">reference</a>.</p>` },
  "/docs/guide.html": { title: "Wren guide", body: body("The guide starts a first cache.") },
  "/docs/reference.html": { title: "Wren reference", body: body("The reference lists every command.") },
};

/** SYNC_TIME_LIMIT: a site that answers every request slowly, each just inside its own deadline, cannot hold a sync for long. */
describe("sync time limit", () => {
  let site: ChangingSite;
  let dataDir: string;
  const cli = (env: Record<string, string>, ...args: string[]) => runCliProcess({ DATA_DIR: dataDir, ...env }, ...args);

  beforeAll(async () => {
    site = await startChangingSite(PAGES);
    dataDir = tempDir();
  });
  afterAll(async () => {
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("stops a sync past SYNC_TIME_LIMIT, records it as failed, and the source keeps what it had", async () => {
    const added = await cli({}, "sources", "add", "--name", "Wren", "--url", `${site.url}/docs/`, "--json");
    expect(added.code).toBe(0);
    const id = JSON.parse(added.stdout).id as string;

    // Every answer now takes 4 s: the crawl (start page, robots.txt, sitemap, then the pages) would take 16 s or more.
    site.slow(4000);
    site.change("/docs/guide.html", "Wren guide", body("The guide now starts two caches."));
    const started = Date.now();
    const synced = await cli({ SYNC_TIME_LIMIT: "2s" }, "sources", "sync", id);
    const took = Date.now() - started;
    expect(synced.code).toBe(1);
    expect(synced.stderr).toContain("The sync was stopped after 2s (SYNC_TIME_LIMIT); the source keeps what it had.");
    expect(took).toBeLessThan(12_000);

    site.slow(0);
    const [listed] = JSON.parse((await cli({}, "sources", "list", "--json")).stdout);
    expect(listed).toMatchObject({ id, pages: 3, last_sync: { status: "failed", trigger: "manual", error: { code: "sync_time_limit" } } });
  });

  it("refuses a SYNC_TIME_LIMIT that is not a duration", async () => {
    const run = await cli({ SYNC_TIME_LIMIT: "soon" }, "sources", "list");
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("SYNC_TIME_LIMIT");
  });
});
