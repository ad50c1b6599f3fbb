import net from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logging/logger.ts";
import { startServer } from "../src/server.ts";
import { graphqlRequest, trpcClient } from "./support/clients.ts";
import { startFakeProviderServer } from "./support/fake-provider-server.ts";
import { startTestServer, type TestServer, tempDir } from "./support/test-server.ts";

const QUESTION = "How do I physically reorder a table according to an index?";

/** A logger whose lines land in `lines`, as the service writes them (JSON, one per line). */
function capturedLogger(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const logger = createLogger(loadConfig({ LOG_LEVEL: "info", ...env }), { destination: { write: (line: string) => void lines.push(line) } });
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, any>);
  const requests = () => records().filter((r) => r.msg === "request");
  return { lines, logger, records, requests };
}

describe("request logs", () => {
  let server: TestServer;
  let log: ReturnType<typeof capturedLogger>;
  let keyId: string;
  beforeAll(async () => {
    log = capturedLogger();
    server = await startTestServer({}, { logger: log.logger });
    keyId = (await server.services.keys.list()).find((k) => k.name === "test")!.id;
  });
  afterAll(() => server.close());

  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  it("does not log a GraphQL client's mistakes as unexpected errors", async () => {
    const before = log.records().length;
    await graphqlRequest(server.url, server.key, "{ sources { id ");
    await graphqlRequest(server.url, server.key, "{ nosuchfield }");
    await graphqlRequest(server.url, server.key, "query ($i: ID!) { source(id: $i) { id } }", { i: { a: 1 } });
    await post("/graphql", [{ query: "{ models { id } }" }]);
    const lines = log.records().slice(before);
    expect(lines.filter((r) => r.msg === "request")).toHaveLength(4);
    expect(lines.filter((r) => r.level >= 50)).toEqual([]);
  });

  it("logs a client that leaves while sending its body as gone (499), on every interface, not as an unexpected error", async () => {
    const paths = ["/v1/chat/completions", "/v1/responses", "/v1/feedback", "/graphql", "/trpc/chat.completions.create", "/mcp"];
    const before = log.records().length;
    const { port } = new URL(server.url);
    // A declared length, and a chunked body (read another way: counted as it streams).
    const framings = ['Content-Length: 1000\r\n\r\n{"model":"agent",', 'Transfer-Encoding: chunked\r\n\r\n11\r\n{"model":"agent",\r\n'];
    for (const framing of framings)
      for (const path of paths) {
        await new Promise<void>((resolve) => {
          const socket = net.connect(Number(port), "127.0.0.1", () => {
            socket.write(
              `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\n` +
                `Accept: application/json, text/event-stream\r\n${framing}`,
            );
            setTimeout(() => socket.destroy(), 200);
          });
          socket.on("close", () => resolve());
          socket.on("error", () => {});
        });
      }
    await expect
      .poll(
        () =>
          log
            .records()
            .slice(before)
            .filter((r) => r.msg === "request").length,
      )
      .toBe(2 * paths.length);
    const lines = log.records().slice(before);
    expect(lines.filter((r) => r.level >= 50)).toEqual([]);
    expect(lines.filter((r) => r.msg === "request").map((r) => r.status)).toEqual([...paths, ...paths].map(() => 499));
  });

  it("writes one JSON line per request with its id, route, door, status, duration, key id and what answered", async () => {
    const before = log.requests().length;
    const response = await post("/v1/chat/completions", { model: "agent", messages: [{ role: "user", content: QUESTION }] }, { "x-request-id": "abc-123" });
    const completion = await response.json();
    expect(response.headers.get("x-request-id")).toBe("abc-123");
    const lines = log.requests().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      request_id: "abc-123",
      method: "POST",
      route: "/v1/chat/completions",
      interface: "rest",
      status: 200,
      key_id: keyId,
      model: "agent",
      answered_by: expect.stringMatching(/^extractive\//),
      sources: [server.sources.pg],
      references: completion.url_references.length,
      refused: false,
      completion_id: completion.id,
      outcome: "completed",
    });
    expect(lines[0]!.duration_ms).toBeGreaterThan(0);
    expect(new Date(lines[0]!.time).toISOString()).toBe(lines[0]!.time);
  });

  it("logs a stream when it has ended, an uncovered question as refused, and each door under its name", async () => {
    const before = log.requests().length;
    const streamed = await post("/v1/chat/completions", {
      model: "agent",
      stream: true,
      messages: [{ role: "user", content: "How many moons does Jupiter have?" }],
    });
    await streamed.text();
    const openai = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await openai.responses.create({ model: "agent", input: QUESTION });
    await graphqlRequest(server.url, server.key, `mutation ($input: ChatCompletionInput!) { createChatCompletion(input: $input) { id } }`, {
      input: { model: "agent", messages: [{ role: "user", content: QUESTION }] },
    });
    await trpcClient(server.url, server.key).sources.get.query({ id: server.sources.sqlite });
    await fetch(`${server.url}/v1/sources/${server.sources.pg}`, { headers: { authorization: `Bearer ${server.key}` } });
    const lines = log.requests().slice(before);
    expect(lines.map((l) => [l.interface, l.route, l.status])).toEqual([
      ["rest", "/v1/chat/completions", 200],
      ["responses", "/v1/responses", 200],
      ["graphql", "/graphql", 200],
      ["trpc", "/trpc/*", 200],
      ["rest", "/v1/sources/:id", 200],
    ]);
    expect(lines[0]).toMatchObject({ refused: true, references: 0, outcome: "completed" });
    expect(lines.every((l) => l.key_id === keyId)).toBe(true);
  });

  it("logs refusals and unknown routes with their reason, and no raw paths", async () => {
    const before = log.requests().length;
    await post("/v1/chat/completions", { model: "agent", messages: [] }, { authorization: "Bearer dk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
    await fetch(`${server.url}/v1/no-such-thing/12345`, { headers: { authorization: `Bearer ${server.key}` } });
    await graphqlRequest(server.url, null, "{ sources { id } }");
    const lines = log.requests().slice(before);
    expect(lines.map((l) => [l.status, l.error, l.key_id])).toEqual([
      [401, "invalid_api_key", null],
      [404, "unknown_url", keyId],
      [401, "missing_api_key", null],
    ]);
    expect(lines[1]!.route).toBe("unmatched");
    expect(JSON.stringify(lines)).not.toContain("12345");
  });

  it("never holds a key, and holds no question text unless LOG_QUESTIONS=1", async () => {
    await post("/v1/chat/completions", { model: "agent", messages: [{ role: "user", content: QUESTION }] });
    const all = log.lines.join("");
    expect(log.requests().length).toBeGreaterThan(5);
    expect(all).not.toContain(server.key);
    expect(all).not.toContain(server.key.slice(3, 20));
    expect(all).not.toContain("physically reorder");
    expect(all).not.toContain("Jupiter");

    const withQuestions = capturedLogger({ LOG_QUESTIONS: "1" });
    const other = await startTestServer({ LOG_QUESTIONS: "1" }, { logger: withQuestions.logger });
    try {
      await fetch(`${other.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${other.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: QUESTION }] }),
      });
      expect(withQuestions.requests().at(-1)).toMatchObject({ question: QUESTION });
      expect(withQuestions.lines.join("")).not.toContain(other.key);
    } finally {
      await other.close();
    }
  });

  it("logs a client that leaves a provider's answer as 499 CLIENT_CLOSED_REQUEST, not as a provider failure", async () => {
    const fake = await startFakeProviderServer({ kind: "endless", intervalMs: 15 });
    const providerLog = capturedLogger();
    const withProvider = await startTestServer(
      { OPENAI_API_KEY: "sk-upstream", OPENAI_BASE_URL: fake.openaiBaseUrl, ANTHROPIC_API_KEY: "sk-ant", ANTHROPIC_BASE_URL: fake.anthropicBaseUrl },
      { logger: providerLog.logger },
    );
    try {
      for (const [path, body] of [
        ["/v1/chat/completions", { model: "provider_a", messages: [{ role: "user", content: QUESTION }] }],
        ["/v1/responses", { model: "provider_a", input: QUESTION }],
      ] as const) {
        const controller = new AbortController();
        const before = fake.requests.length;
        const response = fetch(`${withProvider.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${withProvider.key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: controller.signal,
        }).catch(() => null);
        await expect.poll(() => fake.requests.length, { timeout: 3000 }).toBe(before + 1);
        await new Promise((r) => setTimeout(r, 100));
        controller.abort();
        await response;
        await expect.poll(() => providerLog.requests().filter((r) => r.route === path).length, { timeout: 3000 }).toBe(1);
        expect(providerLog.requests().find((r) => r.route === path)).toMatchObject({ status: 499, error: "CLIENT_CLOSED_REQUEST", level: 30 });
      }
    } finally {
      await withProvider.close();
      await fake.close();
    }
  });

  it("logs a stream its client left mid-way when it has ended, with its completion abandoned", async () => {
    const fake = await startFakeProviderServer({ kind: "endless", intervalMs: 15 });
    const streamLog = capturedLogger();
    const withProvider = await startTestServer({ OPENAI_API_KEY: "sk-upstream", OPENAI_BASE_URL: fake.openaiBaseUrl }, { logger: streamLog.logger });
    try {
      const controller = new AbortController();
      const response = await fetch(`${withProvider.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${withProvider.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "provider_a", stream: true, messages: [{ role: "user", content: QUESTION }] }),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      await reader.read();
      await new Promise((r) => setTimeout(r, 50));
      // Nothing is logged while the stream runs: its line says how it ended.
      expect(streamLog.requests().filter((r) => r.route === "/v1/chat/completions")).toEqual([]);
      controller.abort();
      await reader.read().catch(() => null);
      await expect.poll(() => streamLog.requests().filter((r) => r.route === "/v1/chat/completions").length, { timeout: 3000 }).toBe(1);
      expect(streamLog.requests().find((r) => r.route === "/v1/chat/completions")).toMatchObject({ status: 200, outcome: "abandoned", model: "provider_a" });
    } finally {
      await withProvider.close();
      await fake.close();
    }
  });

  it("logs an MCP tool's unexpected failure as JSON with the tool's name, and tells the client no more than an opaque error", async () => {
    const search = server.services.engine.search;
    server.services.engine.search = async () => {
      throw new Error("index unreadable at /secret/path/index.db");
    };
    try {
      const before = log.records().length;
      const response = await post(
        "/mcp",
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_docs", arguments: { query: "reorder a table" } } },
        { accept: "application/json, text/event-stream" },
      );
      const reply = await response.text();
      expect(reply).toContain('"isError":true');
      expect(reply).not.toContain("/secret/path");
      const failure = log
        .records()
        .slice(before)
        .find((r) => r.msg === "unexpected error");
      expect(failure).toMatchObject({ level: 50, interface: "mcp", tool: "search_docs", err: { message: "index unreadable at /secret/path/index.db" } });
    } finally {
      server.services.engine.search = search;
    }
  });

  it("logs a failing observer as an error and still answers", async () => {
    server.services.completionObservers.push({
      onCompletion() {
        throw new Error("usage store down");
      },
    });
    try {
      const response = await post("/v1/chat/completions", { model: "agent", messages: [{ role: "user", content: QUESTION }] });
      expect(response.status).toBe(200);
      const failure = log.records().find((r) => r.msg === "a completion observer failed");
      expect(failure).toMatchObject({ level: 50, err: { message: "usage store down" } });
    } finally {
      server.services.completionObservers.pop();
    }
  });
});

describe("start-up logs", () => {
  it("go to the logger as JSON, and the first key is shown only on the start-up banner, never logged", async () => {
    const log = capturedLogger();
    const banner: string[] = [];
    const dataDir = tempDir();
    const server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "0" }), { log: (l) => banner.push(l), logger: log.logger });
    try {
      expect(server.firstKey).toMatch(/^dk_/);
      expect(banner.join("\n")).toContain(server.firstKey);
      expect(log.records().map((r) => r.msg)).toContainEqual(expect.stringMatching(/^docent: serving http:\/\/127\.0\.0\.1:\d+\/v1/));
      expect(log.lines.join("")).not.toContain(server.firstKey);
    } finally {
      await server.close();
    }
  });
});
