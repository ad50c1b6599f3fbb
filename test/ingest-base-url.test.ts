import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServices, createServices } from "../src/app-services.ts";
import { loadConfig } from "../src/config.ts";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import type { SourceDocument } from "../src/ingest/list-documents.ts";
import { tempDir } from "./support/test-server.ts";

/**
 * What a page becomes depends on the base URL it is indexed under (its URL,
 * and which of its links stay within the source), so a page whose bytes are
 * unchanged is still re-read when the base URL moved.
 */
describe("re-ingestion under another base URL", () => {
  let dataDir: string;
  let services: AppServices;
  beforeAll(async () => {
    dataDir = tempDir();
    services = await createServices(loadConfig({ DATA_DIR: dataDir }), { preloadIndex: false });
  });
  afterAll(async () => {
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Crawled pages: their URLs do not depend on the base URL, only their scope does.
  const page = (url: string, html: string): SourceDocument => ({ relPath: new URL(url).pathname.slice(1), url, read: async () => Buffer.from(html) });
  const documents = [
    page(
      "https://site.example/docs/v1/vacuum.html",
      `<h1>Vacuum</h1><p>Vacuum reclaims storage held by dead rows. See the <a href="../guide/storage.html">storage guide</a>.</p>`,
    ),
    page("https://site.example/docs/guide/storage.html", `<h1>Storage</h1><p>How tables are laid out on disk in pages of eight kilobytes.</p>`),
  ];
  const ingest = (baseUrl: string) => ingestDocuments(services, { name: "Site", baseUrl, origin: "https://site.example/docs/v1/", documents });
  const linksOfVacuum = async () =>
    (await services.retrieve({ query: "vacuum reclaims dead rows", limit: 5 })).chunks.find((c) => c.url.endsWith("vacuum.html"))?.links?.map((l) => l.url) ??
    [];

  it("re-reads unchanged pages when the base URL changed, so links follow the new scope", async () => {
    expect(await ingest("https://site.example/docs/v1/")).toMatchObject({ added: 2, unchanged: 0 });
    expect(await linksOfVacuum()).toEqual([]);
    expect(await ingest("https://site.example/docs/")).toMatchObject({ added: 0, changed: 2, unchanged: 0 });
    expect(await linksOfVacuum()).toEqual(["https://site.example/docs/guide/storage.html"]);
    expect(await ingest("https://site.example/docs/")).toMatchObject({ changed: 0, unchanged: 2 });
  });
});
