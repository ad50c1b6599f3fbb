import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../src/app-services.ts";
import { loadConfig } from "../src/config.ts";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { type FakeProviderServer, startFakeProviderServer } from "./support/fake-provider-server.ts";
import { FIXTURES, pageOf, startTestServer, type TestServer, tempDir } from "./support/test-server.ts";

const ask = async (server: TestServer, content: string) =>
  (await (
    await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content }], sources: [server.sources.pg] }),
    })
  ).json()) as { url_references: string[] };

/** Optional embeddings through an OpenAI-compatible /embeddings endpoint (a local one speaking its protocol). */
describe("embeddings", () => {
  let fake: FakeProviderServer;
  const servers: TestServer[] = [];
  const start = async (mode: string, env: Record<string, string> = {}) => {
    const server = await startTestServer({ EMBEDDINGS_BASE_URL: fake.openaiBaseUrl, EMBEDDINGS_MODEL: "embed-test", RETRIEVAL_MODE: mode, ...env });
    servers.push(server);
    return server;
  };
  beforeAll(async () => {
    fake = await startFakeProviderServer();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await fake.close();
  });

  it("embeds every passage at ingestion through the embeddings endpoint", async () => {
    const before = fake.requests.length;
    const server = await start("vector");
    const calls = fake.requests.slice(before).filter((r) => r.path === "/v1/embeddings");
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.body.model === "embed-test" && c.body.encoding_format === "float")).toBe(true);
    const embedded = calls.flatMap((c) => c.body.input as string[]);
    const chunks = (await server.services.catalog.list()).reduce((n, s) => n + s.chunks, 0);
    expect(embedded).toHaveLength(chunks);
  });

  it("vector mode finds a page by meaning when no word matches", async () => {
    const vector = servers[0]!;
    const lexical = await startTestServer();
    servers.push(lexical);
    const question = "How do I rearrange things?";
    expect((await ask(lexical, question)).url_references).toEqual([]);
    expect(pageOf((await ask(vector, question)).url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
  });

  it("a page found by meaning alone must clear EMBEDDINGS_MIN_SIMILARITY", async () => {
    const strict = await start("vector", { EMBEDDINGS_MIN_SIMILARITY: "0.999" });
    expect((await ask(strict, "How do I rearrange things?")).url_references).toEqual([]);
    expect(() => loadConfig({ EMBEDDINGS_MIN_SIMILARITY: "2" })).toThrow(/EMBEDDINGS_MIN_SIMILARITY/);
  });

  it("hybrid mode fuses both lists", async () => {
    const hybrid = await start("hybrid");
    const question = "How do I tidy up a relation?";
    const lexical = (await ask(servers[1]!, question)).url_references.map(pageOf);
    const refs = (await ask(hybrid, question)).url_references.map(pageOf);
    // By words only CREATE INDEX ("relation"); by meaning also VACUUM ("reclaims storage" ~ tidy up).
    expect(lexical).not.toContain("https://www.postgresql.org/docs/15/sql-vacuum.html");
    expect(refs).toEqual(
      expect.arrayContaining(["https://www.postgresql.org/docs/15/sql-vacuum.html", "https://www.postgresql.org/docs/15/sql-createindex.html"]),
    );
  });

  it("a client that goes away cancels the question's embeddings call", async () => {
    const server = await start("vector");
    fake.embeddingDelayMs = 5_000;
    const abortsBefore = fake.clientAborts;
    const controller = new AbortController();
    const asked = fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: "rearrange a relation" }], sources: [server.sources.pg] }),
      signal: controller.signal,
    }).catch(() => null);
    try {
      // Wait until the question's embeddings call is under way, then leave.
      const start = fake.requests.length;
      while (!fake.requests.slice(start).some((r) => r.path === "/v1/embeddings")) await new Promise((r) => setTimeout(r, 10));
      controller.abort();
      await asked;
      for (let i = 0; i < 100 && fake.clientAborts === abortsBefore; i++) await new Promise((r) => setTimeout(r, 20));
      expect(fake.clientAborts).toBe(abortsBefore + 1);
    } finally {
      fake.embeddingDelayMs = 0;
    }
  });

  it("a failing embeddings service changes nothing", async () => {
    const dataDir = tempDir();
    const services = await createServices(
      loadConfig({ DATA_DIR: dataDir, EMBEDDINGS_BASE_URL: "http://127.0.0.1:9/v1", EMBEDDINGS_MODEL: "x", PROVIDER_MAX_RETRIES: "0" }),
    );
    const docs = path.join(FIXTURES, "pg");
    await expect(ingestDocuments(services, { name: "PG", baseUrl: "https://x/", origin: docs, documents: listDocuments(docs) })).rejects.toThrow(/embeddings/);
    expect(await services.catalog.list()).toEqual([]);
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("embeds at most the first 8,192 characters of a long question (embedding models refuse longer input)", async () => {
    const before = fake.requests.length;
    const long = `How do I rearrange things? ${"Here is the log line that came with it. ".repeat(2_000)}`;
    expect((await ask(servers[0]!, long)).url_references).toBeDefined();
    const embedded = fake.requests
      .slice(before)
      .filter((r) => r.path === "/v1/embeddings")
      .flatMap((r) => r.body.input as string[]);
    expect(embedded).toHaveLength(1);
    expect(embedded[0]).toBe(long.slice(0, 8192));
  });

  it("rejects a retrieval mode that needs embeddings without them", () => {
    expect(() => loadConfig({ RETRIEVAL_MODE: "hybrid" })).toThrow(/RETRIEVAL_MODE="hybrid": needs EMBEDDINGS_MODEL/);
  });
});
