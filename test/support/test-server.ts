import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { loadConfig } from "../../src/config.ts";
import { ingestDocuments } from "../../src/ingest/ingest-documents.ts";
import { listDocuments } from "../../src/ingest/list-documents.ts";
import { type Logger, silentLogger } from "../../src/logging/logger.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { type FakeProviderServer, type Script, startFakeProviderServer } from "./fake-provider-server.ts";

export const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");

export interface TestServer extends RunningServer {
  key: string;
  dataDir: string;
  sources: { pg: string; sqlite: string };
}

export const tempDir = (prefix = "docent-test-") => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/**
 * Starts the real service on port 0 in a fresh data dir, with the two
 * fixture sources (a PostgreSQL-like and an SQLite-like one) and an API key.
 */
export async function startTestServer(env: Record<string, string> = {}, { logger = silentLogger() }: { logger?: Logger } = {}): Promise<TestServer> {
  const dataDir = tempDir();
  const config = loadConfig({ DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "0", PROVIDER_MAX_RETRIES: "0", ...env });
  const server = await startServer(config, { log: () => {}, logger });
  const add = async (name: string, dir: string, baseUrl: string, description: string) =>
    (await ingestDocuments(server.services, { name, baseUrl, description, origin: dir, documents: listDocuments(path.join(FIXTURES, dir)) })).source.id;
  const pg = await add("PostgreSQL 15 Documentation", "pg", "https://www.postgresql.org/docs/15/", "The PostgreSQL relational database manual.");
  const sqlite = await add("SQLite Documentation", "sqlite", "https://www.sqlite.org/", "The SQLite embedded database.");
  const key = (await server.services.keys.create("test")).key;
  return {
    ...server,
    key,
    dataDir,
    sources: { pg, sqlite },
    async close(options) {
      await server.close(options);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A reference's page, without the section anchor. */
export const pageOf = (url: string | undefined) => url?.replace(/#.*$/, "");

export interface ServerWithProviders {
  fake: FakeProviderServer;
  server: TestServer;
  /** The real `openai` SDK, pointed at the service. */
  client: OpenAI;
  close(): Promise<void>;
}

/**
 * The service with OpenAI and Anthropic configured against a local server
 * speaking their wire protocols (answering `script` unless a test queues
 * others), and an `openai` client for the service; `env` adds or overrides.
 */
export async function startServerWithProviders(script: Script, env: Record<string, string> = {}): Promise<ServerWithProviders> {
  const fake = await startFakeProviderServer(script);
  const server = await startTestServer({
    OPENAI_API_KEY: "sk-upstream",
    OPENAI_BASE_URL: fake.openaiBaseUrl,
    ANTHROPIC_API_KEY: "sk-ant-upstream",
    ANTHROPIC_BASE_URL: fake.anthropicBaseUrl,
    ...env,
  });
  const client = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  return {
    fake,
    server,
    client,
    async close() {
      await server.close();
      await fake.close();
    },
  };
}
