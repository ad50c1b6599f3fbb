import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createServices } from "../src/app-services.ts";
import { loadConfig } from "../src/config.ts";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { type FakeProviderServer, type Script, startFakeProviderServer } from "./support/fake-provider-server.ts";
import { refusesConnections, type SpawnedServer, spawnServer, stillRunning } from "./support/spawn-server.ts";
import { FIXTURES, tempDir } from "./support/test-server.ts";

/**
 * `npm start` as a service manager runs it: a signal to npm's PID stops the
 * service (no server left behind), requests in flight finish within
 * SHUTDOWN_GRACE_MS, and the exit code is 0.
 */
describe("npm start under a service manager", () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A data dir with one source and a key, made before the service starts. */
  async function prepareDataDir() {
    const dataDir = tempDir();
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const services = await createServices(loadConfig({ DATA_DIR: dataDir }), { preloadIndex: false });
    const source = await ingestDocuments(services, {
      name: "PostgreSQL",
      baseUrl: "https://www.postgresql.org/docs/15/",
      origin: "pg",
      documents: listDocuments(path.join(FIXTURES, "pg")),
    });
    const key = (await services.keys.create("test")).key;
    await services.close();
    return { dataDir, key, sourceId: source.source.id };
  }

  async function start(env: Record<string, string>): Promise<SpawnedServer> {
    const server = spawnServer("npm", { PORT: "0", DOCENT_DEMO: "0", PROVIDER_MAX_RETRIES: "0", ...env });
    // Whatever the test's outcome, nothing it started outlives it.
    cleanups.push(() => server.killAll());
    return server;
  }

  async function withFakeProvider(script: Script): Promise<FakeProviderServer> {
    const fake = await startFakeProviderServer(script);
    cleanups.push(() => fake.close());
    return fake;
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`stops on ${signal} to npm's PID: exit 0, the port is free and no process is left`, async () => {
      const { dataDir } = await prepareDataDir();
      const server = await start({ DATA_DIR: dataDir });
      const url = await server.ready;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const below = server.descendants();
      expect(below.length).toBeGreaterThan(0);

      process.kill(server.pid, signal);
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(await refusesConnections(url)).toBe(true);
      expect(await stillRunning(below)).toEqual([]);
    });
  }

  /** Posts a streamed question; resolves `firstChunk` when the first content arrives, `done` with all the SSE text. */
  function streamQuestion(url: string, key: string, sourceId: string) {
    let firstChunk!: () => void;
    const first = new Promise<void>((r) => (firstChunk = r));
    const done = (async () => {
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: "provider_a",
          stream: true,
          sources: [sourceId],
          messages: [{ role: "user", content: "How do I reclaim storage with vacuum?" }],
        }),
      });
      expect(response.status).toBe(200);
      let text = "";
      const decoder = new TextDecoder();
      const reader = response.body!.getReader();
      try {
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          text += decoder.decode(read.value, { stream: true });
          if (/"content":"\S/.test(text)) firstChunk();
        }
      } catch {
        // a connection cut mid-stream ends the text here
      }
      return text;
    })();
    return { first, done };
  }

  const contentOf = (sse: string) =>
    sse
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)).choices?.[0]?.delta?.content ?? "")
      .join("");

  it("lets a stream in flight finish within the grace period, then exits 0", async () => {
    const answer = "Vacuum reclaims storage occupied by dead tuples in a table.";
    const fake = await withFakeProvider({ kind: "reply", text: answer, delayMs: 150 });
    const { dataDir, key, sourceId } = await prepareDataDir();
    const server = await start({ DATA_DIR: dataDir, OPENAI_API_KEY: "sk-upstream", OPENAI_BASE_URL: fake.openaiBaseUrl, SHUTDOWN_GRACE_MS: "30000" });
    const url = await server.ready;

    const stream = streamQuestion(url, key, sourceId);
    await stream.first;
    process.kill(server.pid, "SIGTERM");
    const sse = await stream.done;
    expect(contentOf(sse)).toBe(answer);
    expect(sse).toContain("data: [DONE]");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(await refusesConnections(url)).toBe(true);
  });

  it("cuts a stream still running when the grace period ends, then exits 0", async () => {
    const fake = await withFakeProvider({ kind: "endless", intervalMs: 50 });
    const { dataDir, key, sourceId } = await prepareDataDir();
    const server = await start({ DATA_DIR: dataDir, OPENAI_API_KEY: "sk-upstream", OPENAI_BASE_URL: fake.openaiBaseUrl, SHUTDOWN_GRACE_MS: "300" });
    const url = await server.ready;

    const stream = streamQuestion(url, key, sourceId);
    await stream.first;
    process.kill(server.pid, "SIGTERM");
    const sse = await stream.done;
    // Cut where it stood (a last space still waiting for what follows it may not have gone out).
    expect(contentOf(sse)).toMatch(/^more( more)* ?$/);
    expect(sse).not.toContain("[DONE]");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(await refusesConnections(url)).toBe(true);
  });
});
