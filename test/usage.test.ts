import fs from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { utcDay } from "../src/core/usage-store.ts";
import { createSqliteClient } from "../src/db/prisma-client.ts";
import { createPrismaUsageStore } from "../src/db/prisma-usage-store.ts";
import { silentLogger } from "../src/logging/logger.ts";
import { startServer } from "../src/server.ts";
import { runCliProcess } from "./support/cli-process.ts";
import { startTestServer, type TestServer, tempDir } from "./support/test-server.ts";

const QUESTION = "How do I physically reorder a table according to an index?";
const messages = [{ role: "user" as const, content: QUESTION }];

/** Usage per key through GET /v1/usage and the CLI, from real requests. */
describe("usage per key", () => {
  let server: TestServer;
  let other: { id: string; key: string };
  const usage = (key: string, query = "") => fetch(`${server.url}/v1/usage${query}`, { headers: { authorization: `Bearer ${key}` } });
  const cli = (...args: string[]) => runCliProcess({ DATA_DIR: server.dataDir }, ...args);

  beforeAll(async () => {
    // A flush interval no test waits for: what is counted is written by GET /v1/usage or the graceful stop.
    server = await startTestServer({ USAGE_FLUSH_MS: "3600000" });
    other = await server.services.keys.create("other");
  });
  afterAll(() => server.close());

  it("counts each key's requests and tokens per day and model, and shows a key only its own", async () => {
    const client = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const first = await client.chat.completions.create({ model: "agent", messages });
    let streamed = { prompt_tokens: 0, completion_tokens: 0 };
    for await (const chunk of await client.chat.completions.create({ model: "agent", messages, stream: true, stream_options: { include_usage: true } })) {
      if (chunk.usage) streamed = chunk.usage;
    }
    const theirs = await new OpenAI({ apiKey: other.key, baseURL: `${server.url}/v1`, maxRetries: 0 }).chat.completions.create({
      model: "agent",
      messages: [{ role: "user", content: "How many moons does Jupiter have?" }],
    });

    const response = await usage(server.key);
    expect(response.status).toBe(200);
    const mine = await response.json();
    const today = utcDay(Date.now());
    const myKeyId = (await server.services.keys.list()).find((k) => k.name === "test")!.id;
    expect(mine).toMatchObject({ object: "usage", until: today });
    expect(mine.data).toEqual([
      {
        object: "usage.bucket",
        date: today,
        key_id: myKeyId,
        model: "agent",
        served_by: "extractive/docent-extractive-1",
        requests: 2,
        prompt_tokens: first.usage!.prompt_tokens + streamed.prompt_tokens,
        completion_tokens: first.usage!.completion_tokens + streamed.completion_tokens,
        total_tokens: first.usage!.total_tokens + streamed.prompt_tokens + streamed.completion_tokens,
      },
    ]);
    expect(mine.totals).toEqual({
      requests: 2,
      prompt_tokens: mine.data[0].prompt_tokens,
      completion_tokens: mine.data[0].completion_tokens,
      total_tokens: mine.data[0].total_tokens,
    });

    const them = await (await usage(other.key, "?since=1d")).json();
    expect(them.data.map((b: { key_id: string; requests: number; total_tokens: number }) => [b.key_id, b.requests, b.total_tokens])).toEqual([
      [other.id, 1, theirs.usage!.total_tokens],
    ]);
    // A window that ends before today holds nothing.
    expect((await (await usage(server.key, "?since=2026-01-01&until=2026-01-31")).json()).data).toEqual([]);
  });

  it("refuses bad query parameters in OpenAI's error shape, naming the parameter", async () => {
    for (const [query, param] of [
      ["?since=yesterday", "since"],
      ["?since=0d", "since"],
      ["?until=2026-02-30", "until"],
      ["?since=7d&since=1d", "since"],
      ["?key_id=abc", "key_id"],
      // Names every object inherits are unknown parameters like any other.
      ["?__proto__=1", "__proto__"],
      ["?toString=1", "toString"],
      ["?constructor=x", "constructor"],
      ["?since=2026-11-10&until=2026-11-01", "since"],
    ] as const) {
      const response = await usage(server.key, query);
      expect(response.status, query).toBe(400);
      const body = await response.json();
      expect(body, query).toEqual({ error: { message: expect.any(String), type: "invalid_request_error", param, code: expect.any(String) } });
    }
    expect((await fetch(`${server.url}/v1/usage`)).status).toBe(401);
  });

  it("npm run cli -- usage lists every key or one, as a table or JSON", async () => {
    const all = await cli("usage", "--json", "--since", "7d");
    expect(all.code).toBe(0);
    const parsed = JSON.parse(all.stdout);
    expect(parsed.data.map((b: { key_id: string }) => b.key_id).sort()).toEqual(
      [other.id, (await server.services.keys.list()).find((k) => k.name === "test")!.id].sort(),
    );
    const one = JSON.parse((await cli("usage", "--key", other.id, "--json")).stdout);
    expect(one.data).toHaveLength(1);
    expect(one.totals.requests).toBe(1);
    const text = await cli("usage", "--key", other.id);
    expect(text.stdout).toMatch(/^DATE\s+KEY\s+MODEL\s+SERVED_BY\s+REQUESTS/m);
    expect(text.stdout).toContain(`other ${other.id.slice(0, 8)}`);
    expect(text.stdout).toMatch(/Total: 1 requests/);
    const bad = await cli("usage", "--since", "last week");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since: use a span back from now/);
  });
});

/** The usage of requests just served is written on a graceful stop, not left in memory. */
describe("usage on a graceful stop", () => {
  it("is in the database after the server stops, though the flush timer never fired", async () => {
    const dataDir = tempDir();
    try {
      const server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "1", USAGE_FLUSH_MS: "3600000" }), {
        log: () => {},
        logger: silentLogger(),
      });
      const key = (await server.services.keys.create("stop")).key;
      const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
      for (let i = 0; i < 3; i++)
        await client.chat.completions.create({ model: "agent", messages: [{ role: "user", content: "How do I add a knowledge source?" }] });
      await server.close({ graceMs: 1000 });

      const prisma = createSqliteClient(path.join(dataDir, "docent.db"));
      try {
        const rows = await createPrismaUsageStore(prisma).list({ sinceDay: "2026-01-01" });
        expect(rows.map((r) => [r.model, r.requests])).toEqual([["agent", 3]]);
        expect(rows[0]!.completionTokens).toBeGreaterThan(0);
        expect(await prisma.servedCompletion.count()).toBe(3);
      } finally {
        await prisma.$disconnect();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
