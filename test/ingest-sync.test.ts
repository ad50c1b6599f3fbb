import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServices, createServices } from "../src/app-services.ts";
import { loadConfig } from "../src/config.ts";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { createPageParser } from "../src/ingest/page-parser.ts";
import { FIXTURES, tempDir } from "./support/test-server.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");

/** Incremental, idempotent, atomic ingestion on a real SQLite catalog and index. */
describe("ingestion and sync", () => {
  let dataDir: string;
  let docs: string;
  let services: AppServices;
  const add = () => ingestDocuments(services, { name: "PG", baseUrl: "https://pg.example/docs/", origin: docs, documents: listDocuments(docs) });
  const search = async (query: string) => (await services.retrieve({ query, limit: 50 })).chunks;

  beforeAll(async () => {
    dataDir = tempDir();
    docs = path.join(tempDir(), "pg");
    fs.cpSync(path.join(FIXTURES, "pg"), docs, { recursive: true });
    services = await createServices(loadConfig({ DATA_DIR: dataDir }));
  });
  afterAll(async () => {
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("adds a folder, skipping non-content pages and unreadable files", async () => {
    fs.symlinkSync(path.join(docs, "gone.html"), path.join(docs, "dangling.html"));
    const first = await add();
    expect(first).toMatchObject({ added: 3, changed: 0, removed: 0, unchanged: 0, pages: 3, skipped: 1 });
    expect((await search("genindex reorder physically")).some((c) => c.url.endsWith("genindex.html"))).toBe(false);
  });

  it("re-ingests unchanged pages as unchanged, with no duplicates", async () => {
    const before = (await search("cluster reorder")).length;
    const again = await add();
    expect(again).toMatchObject({ added: 0, changed: 0, removed: 0, unchanged: 3 });
    expect((await search("cluster reorder")).length).toBe(before);
  });

  it("replaces changed pages, adds new ones and deletes removed ones", async () => {
    const cluster = path.join(docs, "sql-cluster.html");
    fs.writeFileSync(cluster, fs.readFileSync(cluster, "utf8").replace("physically reordered", "physically rearranged (zanzibar)"));
    fs.rmSync(path.join(docs, "sql-vacuum.html"));
    fs.writeFileSync(
      path.join(docs, "sql-reindex.html"),
      "<html><head><title>REINDEX</title></head><body><h1>REINDEX</h1><p>REINDEX rebuilds an index using the data stored in the index's table.</p></body></html>",
    );
    const synced = await add();
    expect(synced).toMatchObject({ added: 1, changed: 1, removed: 1, unchanged: 1, pages: 3 });
    expect((await search("zanzibar")).map((c) => c.url)).toEqual(["https://pg.example/docs/sql-cluster.html"]);
    expect(await search("tuples obsoleted")).toEqual([]);
    expect((await search("rebuilds")).map((c) => c.url)).toContain("https://pg.example/docs/sql-reindex.html");
  });

  it("keeps the previous index serving when an update fails mid-way", async () => {
    const before = await search("zanzibar");
    const broken = {
      url: "https://pg.example/docs/sql-cluster.html",
      hash: "x",
      chunks: [{ sourceId: "s", url: "https://pg.example/docs/sql-cluster.html", anchor: "", title: "T", section: "", text: undefined as unknown as string }],
    };
    const id = (await services.catalog.findByName("PG"))!.id;
    await expect(services.writer.applyChanges(id, { upsert: [broken], remove: ["https://pg.example/docs/sql-reindex.html"] })).rejects.toThrow();
    expect(await search("zanzibar")).toEqual(before);
    expect((await search("rebuilds")).length).toBeGreaterThan(0);
  });

  it("keeps a changed page the parser cannot read within its limits as it was, and removes nothing that sync", async () => {
    const cluster = path.join(docs, "sql-cluster.html");
    const reindex = path.join(docs, "sql-reindex.html");
    const [clusterHtml, reindexHtml] = [fs.readFileSync(cluster, "utf8"), fs.readFileSync(reindex, "utf8")];
    fs.writeFileSync(cluster, clusterHtml.replace("(zanzibar)", "(zanzibar, again)"));
    // A parser with no time at all: every changed page is over its limit, as on a machine too busy to parse it in time.
    const parser = createPageParser({ timeLimitMs: 1 });
    try {
      fs.rmSync(reindex);
      const synced = await ingestDocuments(
        { ...services, parser },
        { name: "PG", baseUrl: "https://pg.example/docs/", origin: docs, documents: listDocuments(docs) },
      );
      expect(synced).toMatchObject({ changed: 0, removed: 0, pages: 3 });
      expect((await search("zanzibar")).map((c) => c.url)).toEqual(["https://pg.example/docs/sql-cluster.html"]);
    } finally {
      await parser.close();
      fs.writeFileSync(cluster, clusterHtml);
      fs.writeFileSync(reindex, reindexHtml);
    }
  });

  it("sources sync ID re-reads the folder and ends with a summary line", async () => {
    const id = (await services.catalog.findByName("PG"))!.id;
    fs.appendFileSync(path.join(docs, "sql-reindex.html"), "<p>Also see VACUUM FULL.</p>");
    const { stdout } = await run("npm", ["run", "-s", "cli", "--", "sources", "sync", id], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir } });
    expect(stdout.trim()).toMatch(
      /^Synced "PG" \(id [0-9a-f-]+\): 0 added, 1 changed, 0 removed, 2 unchanged pages; 1 unreadable or empty files skipped, 0 non-content pages left out; now 3 pages, \d+ chunks; [\d.]+ s\.$/,
    );
  });
});

/** An all-in-one page's copies stay out of the index when it changes alone (the pages it gathers unchanged). */
describe("an all-in-one page synced alone", () => {
  // Long enough that the all-in-one page takes more passages than each page it gathers (passages hold up to 400 words).
  const sentences = (topic: string) =>
    [1, 2, 3, 4, 5].map((n) => `The ${topic} module explains behaviour number ${n}${" and then says more about what that behaviour means".repeat(6)}.`);
  const html = (title: string, body: string[]) =>
    `<html><head><title>${title}</title></head><body><h1>${title}</h1>${body.map((p) => `<p>${p}</p>`).join("")}</body></html>`;
  it("drops its copied passages on a sync that re-reads it but not the pages it gathers", async () => {
    const dataDir = tempDir();
    const docs = tempDir();
    const services = await createServices(loadConfig({ DATA_DIR: dataDir }));
    try {
      fs.writeFileSync(path.join(docs, "crypto.html"), html("Crypto", sentences("crypto")));
      fs.writeFileSync(path.join(docs, "zlib.html"), html("Zlib", sentences("zlib")));
      // Cut elsewhere than the two pages it gathers: a heading between every two sentences.
      const all = (extra: string) =>
        `<html><head><title>All</title></head><body><h1>All</h1>${[...sentences("crypto"), ...sentences("zlib")].map((t, i) => `<h2>Part ${i}</h2><p>${t}</p>`).join("")}${extra}</body></html>`;
      fs.writeFileSync(path.join(docs, "all.html"), all(""));
      const add = () => ingestDocuments(services, { name: "Node", baseUrl: "https://node.example/api/", origin: docs, documents: listDocuments(docs) });
      const pagesHolding = async (query: string) =>
        [...new Set((await services.retrieve({ query, limit: 50 })).chunks.map((c) => c.url.replace(/^.*\//, "")))].sort();
      await add();
      expect(await pagesHolding("crypto")).toEqual(["crypto.html"]);
      // Only the all-in-one page changes: the sync re-reads it alone, and reads the others as stored.
      fs.writeFileSync(path.join(docs, "all.html"), all("<p>Stability: stable.</p>"));
      expect(await add()).toMatchObject({ unchanged: 2 });
      expect(await pagesHolding("crypto")).toEqual(["crypto.html"]);
      expect(await pagesHolding("zlib")).toEqual(["zlib.html"]);
    } finally {
      await services.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
