import fs from "node:fs";
import path from "node:path";
import type { Client, ClientOptions as McpClientOptions } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { MAX_PAGE_CHARS } from "../src/mcp/tools/get-page.ts";
import { mcpClient } from "./support/clients.ts";
import { pageOf, type ServerWithProviders, startServerWithProviders, startTestServer, type TestServer, tempDir } from "./support/test-server.ts";

/**
 * The MCP server at /mcp, driven by the official MCP client SDK over
 * Streamable HTTP against the real service: tools, scope, refusals, limits.
 */
const QUESTION = "How do I build an index without locking writes?";
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const PG_NAME = "PostgreSQL 15 Documentation";

interface ToolResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: any;
  isError?: boolean;
}
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;
const textOf = (result: ToolResult) => result.content.map((c) => c.text ?? "").join("");

const rpc = (server: TestServer, headers: Record<string, string>, body: object | string = { jsonrpc: "2.0", id: 1, method: "tools/list" }) =>
  fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("MCP at /mcp", () => {
  let server: TestServer;
  let client: Client;
  let scopedKey: string;
  beforeAll(async () => {
    server = await startTestServer();
    client = await mcpClient(server.url, server.key);
    scopedKey = (await server.services.keys.create("sqlite only", { sourceIds: [server.sources.sqlite] })).key;
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it("lists four read-only, idempotent tools, described for a model, with bounded inputs", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["ask_docs", "get_page", "list_sources", "search_docs"]);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
      expect(tool.description!.length).toBeGreaterThan(150);
    }
    const search = tools.find((t) => t.name === "search_docs")!.inputSchema as any;
    expect(search.required).toEqual(["query"]);
    expect(search.properties.query).toMatchObject({ type: "string", maxLength: 2000 });
    expect(search.properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 20, default: 5 });
    expect(search.properties.sources).toMatchObject({ type: "array", maxItems: 20 });
    expect((tools.find((t) => t.name === "ask_docs")!.inputSchema as any).properties.question).toMatchObject({ maxLength: 2000 });
  });

  it("search_docs: passages best first, each with its page title, section, URL to the section, source and text", async () => {
    const result = await call(client, "search_docs", { query: QUESTION, sources: [server.sources.pg] });
    expect(result.isError).toBeFalsy();
    const { sources, passages } = result.structuredContent;
    expect(sources).toEqual([{ id: server.sources.pg, name: PG_NAME }]);
    expect(passages.length).toBeGreaterThan(1);
    expect(passages[0]).toEqual({
      source_id: server.sources.pg,
      source_name: PG_NAME,
      title: "CREATE INDEX — define a new index",
      section: expect.any(String),
      url: "https://www.postgresql.org/docs/15/sql-createindex.html#SQL-CREATEINDEX",
      text: expect.stringContaining("without locking out writes"),
    });
    expect(textOf(result)).toContain(`[1] CREATE INDEX — define a new index\nURL: ${passages[0].url}\nSource: ${PG_NAME} (${server.sources.pg})`);
    // Without sources the agent chooses, within the key's scope; `limit` caps the list.
    const chosen = await call(client, "search_docs", { query: QUESTION, limit: 1 });
    expect(chosen.structuredContent.sources).toEqual([{ id: server.sources.pg, name: PG_NAME }]);
    expect(chosen.structuredContent.passages).toEqual([passages[0]]);
  });

  it("search_docs finds nothing rather than guess when the documentation does not cover the query", async () => {
    const result = await call(client, "search_docs", { query: "Which vacuum cleaner picks up pet hair from carpets?" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.passages).toEqual([]);
    expect(textOf(result)).toMatch(/does not cover|No documentation/);
  });

  it("get_page: the stored text of the page a passage came from, from the section its URL names", async () => {
    const [passage] = (await call(client, "search_docs", { query: QUESTION, sources: [server.sources.pg] })).structuredContent.passages;
    const result = await call(client, "get_page", { url: passage.url });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      url: pageOf(passage.url),
      title: passage.title,
      source_id: server.sources.pg,
      source_name: PG_NAME,
      next_url: null,
    });
    expect(result.structuredContent.sections[0].url).toBe(passage.url);
    // A passage of several short sections comes back as those sections: the same words, split at their headings.
    const words = (text: string) => text.replace(/\s+/g, " ").trim();
    expect(words(result.structuredContent.sections.map((s: { text: string }) => s.text).join(" "))).toContain(words(passage.text));
    expect(textOf(result)).toContain(`# ${passage.title}\nSource: ${PG_NAME}`);
    const unknown = await call(client, "get_page", { url: "https://www.postgresql.org/docs/15/no-such-page.html" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/No stored page at 'https:\/\/www\.postgresql\.org\/docs\/15\/no-such-page\.html'/);
  });

  it("list_sources: the key's sources in the one resource shape, as REST lists them", async () => {
    const result = await call(client, "list_sources");
    const rest = await (await fetch(`${server.url}/v1/sources`, { headers: { authorization: `Bearer ${server.key}` } })).json();
    expect(result.structuredContent.sources).toEqual(rest.data);
    expect(result.structuredContent.sources.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining([server.sources.pg, server.sources.sqlite]));
    expect(textOf(result)).toContain(
      `- ${PG_NAME} (id ${server.sources.pg}): The PostgreSQL relational database manual. Base URL https://www.postgresql.org/docs/15/; 3 pages`,
    );
  });

  it("list_sources: a description without a full stop does not run into the next field", async () => {
    const { source } = await ingestDocuments(server.services, {
      name: "Widgets",
      baseUrl: "https://widgets.example/docs/",
      description: "The Widget manual",
      origin: "pg",
      documents: listDocuments(path.join(import.meta.dirname, "fixtures/pg")),
    });
    try {
      expect(textOf(await call(client, "list_sources"))).toContain(`- Widgets (id ${source.id}): The Widget manual. Base URL https://widgets.example/docs/;`);
    } finally {
      await server.services.catalog.remove(source.id);
    }
  });

  it("ask_docs: a grounded answer with its references", async () => {
    const result = await call(client, "ask_docs", { question: QUESTION, sources: [server.sources.pg] });
    expect(result.isError).toBeFalsy();
    const { answer, references, model, sources } = result.structuredContent;
    expect(answer).toMatch(/CONCURRENTLY.*\[1\]/);
    expect(references).toEqual([
      { title: "CREATE INDEX — define a new index", url: "https://www.postgresql.org/docs/15/sql-createindex.html#SQL-CREATEINDEX-CONCURRENTLY" },
    ]);
    expect(model).toMatch(/^extractive\//);
    expect(sources).toEqual([{ id: server.sources.pg, name: PG_NAME }]);
    expect(textOf(result)).toBe(`${answer}\n\nReferences:\n[1] ${references[0].title}: ${references[0].url}`);
  });

  it("a scoped key sees only its sources in every tool; another source answers exactly like an unknown one", async () => {
    const scoped = await mcpClient(server.url, scopedKey);
    try {
      expect((await call(scoped, "list_sources")).structuredContent.sources.map((s: { id: string }) => s.id)).toEqual([server.sources.sqlite]);
      for (const [tool, args] of [
        ["search_docs", { query: QUESTION }],
        ["ask_docs", { question: QUESTION }],
      ] as const) {
        const outside = await call(scoped, tool, { ...args, sources: [server.sources.pg] });
        const unknown = await call(scoped, tool, { ...args, sources: [UNKNOWN_ID] });
        expect(outside.isError, tool).toBe(true);
        expect(textOf(outside), tool).toBe(textOf(unknown).replaceAll(UNKNOWN_ID, server.sources.pg));
      }
      // A PostgreSQL question, asked without sources, is answered from the key's sources only.
      const chosen = await call(scoped, "search_docs", { query: QUESTION });
      expect(chosen.structuredContent.sources.map((s: { id: string }) => s.id)).not.toContain(server.sources.pg);
      expect(chosen.structuredContent.passages.every((p: { source_id: string }) => p.source_id === server.sources.sqlite)).toBe(true);
      const asked = await call(scoped, "ask_docs", { question: QUESTION });
      expect(asked.structuredContent.references.every((r: { url: string }) => !r.url.includes("postgresql.org"))).toBe(true);

      const pgPage = "https://www.postgresql.org/docs/15/sql-createindex.html";
      const unknownPage = "https://www.postgresql.org/docs/15/no-such-page.html";
      expect((await call(client, "get_page", { url: pgPage })).isError).toBeFalsy();
      const [outside, unknown] = [await call(scoped, "get_page", { url: pgPage }), await call(scoped, "get_page", { url: unknownPage })];
      expect(outside.isError).toBe(true);
      expect(textOf(outside)).toBe(textOf(unknown).replaceAll(unknownPage, pgPage));
    } finally {
      await scoped.close();
    }
  });

  it("refuses a missing or bad key with 401 before any MCP work", async () => {
    const error = (await mcpClient(server.url, null).then(
      () => null,
      (e: unknown) => e,
    )) as { status?: number } | null;
    expect(error?.status).toBe(401);
    for (const headers of [{}, { authorization: "Bearer dk_not-a-key" }] as Array<Record<string, string>>) {
      // Not even JSON: the key is checked first.
      const response = await rpc(server, headers, "{not json");
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="docent"');
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32000,
          message: expect.stringMatching(/API key/),
          data: { code: "UNAUTHORIZED", reason: expect.stringMatching(/^(missing|invalid)_api_key$/) },
        },
      });
    }
  });

  it("refuses a body nested too deep in JSON-RPC form, before MCP parses it", async () => {
    const response = await rpc(server, { authorization: `Bearer ${server.key}` }, `{"a":${"[".repeat(100)}${"]".repeat(100)}}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: expect.stringMatching(/nests JSON more than/), data: { code: "BAD_REQUEST", reason: "json_too_deep" } },
    });
  });

  it("answers a POST with no body, or an empty one, as a parse error (400), not as a failure of its own", async () => {
    for (const body of [undefined, ""]) {
      const response = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body,
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
    }
  });

  it("answers bad arguments with a tool error that names them", async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ["search_docs", { query: "vacuum", limit: 21 }, /limit: Too big/],
      ["search_docs", { query: "vacuum", limit: 0 }, /limit: Too small/],
      ["search_docs", { query: "x".repeat(2001) }, /query: Too big: expected string to have <=2000 characters/],
      ["search_docs", { query: "vacuum", sources: ["postgres"] }, /sources\.0: must be a knowledge-source id/],
      ["search_docs", { query: "vacuum", sources: Array(21).fill(UNKNOWN_ID) }, /sources: Too big/],
      ["search_docs", { query: "   " }, /'query' must contain text/],
      ["get_page", {}, /url: .*expected string/],
      ["ask_docs", { question: "" }, /question: Too small/],
      ["ask_docs", { question: "  \n " }, /^'question' must contain text/],
      // A misnamed argument is refused, not dropped: dropped, `source` would have let the search span every source.
      ["search_docs", { query: "vacuum", source: [UNKNOWN_ID] }, /Unrecognized argument 'source': did you mean 'sources'\?/],
      ["ask_docs", { question: "vacuum?", sourceIds: [UNKNOWN_ID] }, /Unrecognized argument 'sourceIds': did you mean 'sources'\?/],
    ];
    for (const [tool, args, message] of cases) {
      const result = await call(client, tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args).slice(0, 80)}`).toBe(true);
      expect(textOf(result)).toMatch(message);
    }
    // Arguments clients add of their own (n8n's toolCallId, a description, _meta) are no mistake of the model's: let through.
    const added = await call(client, "search_docs", { query: "vacuum", limit: 1, toolCallId: "call_1", tool_call_description: "x", _meta: {} });
    expect(added.isError).toBeFalsy();
  });

  it("is stateless: GET and DELETE (session operations) are answered 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${server.url}/mcp`, { method, headers: { authorization: `Bearer ${server.key}`, accept: "text/event-stream" } });
      expect(response.status, method).toBe(405);
      expect((await response.json()).error.message).toMatch(/Method not allowed/);
    }
  });

  it("serves a 2026-era client (server/discover, no session) the same tools", async () => {
    const modern = await mcpClient(server.url, server.key, { versionNegotiation: { mode: "auto" } });
    try {
      expect(modern.getProtocolEra()).toBe("modern");
      expect(client.getProtocolEra()).toBe("legacy");
      const args = { query: QUESTION, sources: [server.sources.pg] };
      expect((await call(modern, "search_docs", args)).structuredContent).toEqual((await call(client, "search_docs", args)).structuredContent);
    } finally {
      await modern.close();
    }
  });

  it("refuses a browser Origin it does not know with 403, as the MCP spec asks", async () => {
    expect((await rpc(server, { authorization: `Bearer ${server.key}`, origin: "https://attacker.example" })).status).toBe(403);
    expect((await rpc(server, { authorization: `Bearer ${server.key}`, origin: "http://localhost:5173" })).status).toBe(200);
  });

  /** One page ingested as a source of its own: its URL and its stored text. */
  async function ingestPage(name: string, file: string, content: string) {
    const dir = tempDir("docent-mcp-page-");
    fs.writeFileSync(path.join(dir, file), content);
    const baseUrl = `https://${name.toLowerCase()}.example/`;
    const { source } = await ingestDocuments(server.services, { name, baseUrl, description: "A long page.", origin: dir, documents: listDocuments(dir) });
    fs.rmSync(dir, { recursive: true, force: true });
    const [url] = [...(await server.services.writer.pageHashes(source.id)).keys()];
    return { url: url!, whole: await server.services.resources.getPage(url!, null) };
  }

  /** get_page from `url` on, following next_url (at most 10 calls): each piece within MAX_PAGE_CHARS. */
  async function readInPieces(url: string) {
    const pieces: Array<{ asked: string; result: ToolResult }> = [];
    let next: string | null = url;
    for (let calls = 0; next && calls < 10; calls++) {
      const result: ToolResult = await call(client, "get_page", { url: next });
      expect(result.structuredContent.sections.map((s: { text: string }) => s.text).join("").length).toBeLessThanOrEqual(MAX_PAGE_CHARS);
      pieces.push({ asked: next, result });
      next = result.structuredContent.next_url;
    }
    expect(next).toBeNull();
    return pieces;
  }

  it("get_page starts at the section a URL names however its fragment is spelled (`#café` or `#caf%C3%A9`)", async () => {
    const [passage] = (await call(client, "search_docs", { query: QUESTION, sources: [server.sources.pg] })).structuredContent.passages;
    const sections: { url: string }[] = (await call(client, "get_page", { url: pageOf(passage.url) })).structuredContent.sections;
    const later = sections.map((s) => s.url).find((url) => url.includes("#") && url !== sections[0]!.url);
    expect(later).toBeDefined();
    const [page, anchor] = later!.split("#");
    const respelled = `${page}#${[...anchor!].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join("")}`;
    const result = await call(client, "get_page", { url: respelled });
    expect(result.structuredContent.sections[0].url).toBe(later);
  });

  it("get_page reads a long page in pieces, in page order, each call moving on", async () => {
    // Every third section is long enough to be split into three passages under one anchor.
    const sections = Array.from(
      { length: 24 },
      (_, i) => `## Lock mode ${i + 1}\n\n${`Lock mode ${i + 1} guards table rows against writers in this particular way. `.repeat(i % 3 === 0 ? 90 : 32)}`,
    );
    const { url, whole } = await ingestPage("Locking", "locking.md", `# Locking guide\n\n${sections.join("\n\n")}\n`);
    expect(whole.sections.map((s) => s.text).join("").length).toBeGreaterThan(MAX_PAGE_CHARS);

    expect(new Set(whole.sections.map((s) => s.url)).size).toBeLessThan(whole.sections.length);
    const middle = whole.sections[20]!.url;
    const fromMiddle = (await call(client, "get_page", { url: middle })).structuredContent.sections;
    expect(fromMiddle[0].url).toBe(middle);
    expect(fromMiddle[0].text).toBe(whole.sections.find((s) => s.url === middle)!.text);

    const read: Array<{ url: string; text: string }> = [];
    for (const { asked, result } of await readInPieces(url)) {
      const piece = result.structuredContent;
      if (asked !== url) expect(piece.sections[0].url).toBe(asked);
      if (piece.next_url) expect(textOf(result)).toContain(`[The page continues: get_page with ${piece.next_url} reads on.]`);
      read.push(...piece.sections);
    }
    expect(read).toEqual(whole.sections.map(({ url, text }) => ({ url, text, section: expect.any(String) })));
  });

  it("get_page reads a long page without section anchors in pieces too", async () => {
    // HTML headings without ids: every passage has the page's own URL.
    const body = Array.from(
      { length: 60 },
      (_, i) => `<h2>Part ${i + 1}</h2><p>${`Part ${i + 1} describes one more step of the install. `.repeat(40)}</p>`,
    ).join("");
    const { url, whole } = await ingestPage("Flat", "flat.html", `<html><head><title>Flat</title></head><body><main><h1>Flat</h1>${body}</main></body></html>`);
    expect(new Set(whole.sections.map((s) => s.url))).toEqual(new Set([url]));
    expect(whole.sections.map((s) => s.text).join("").length).toBeGreaterThan(2 * MAX_PAGE_CHARS);
    const read = (await readInPieces(url)).flatMap(({ result }) => result.structuredContent.sections.map((s: { text: string }) => s.text));
    expect(read).toEqual(whole.sections.map((s) => s.text));
    // A part number past the page reads its last passage; one that is no number is no part.
    const past = (await call(client, "get_page", { url: `${url}#docent-part=999999` })).structuredContent;
    expect(past).toMatchObject({ next_url: null, sections: [{ text: whole.sections.at(-1)!.text }] });
    const odd = (await call(client, "get_page", { url: `${url}#docent-part=-1` })).structuredContent;
    expect(odd.sections[0].text).toBe(whole.sections[0]!.text);
    // The part marker written back percent-encoded (as a URL library may) names the same part.
    const encoded = (await call(client, "get_page", { url: `${url}#docent-part%3D999999` })).structuredContent;
    expect(encoded).toEqual(past);
  });
});

describe("MCP under the key's rate limit", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: "2" });
  });
  afterAll(() => server?.close());

  it("counts MCP requests in the key's budget and answers 429 with Retry-After past it", async () => {
    const authorization = `Bearer ${server.key}`;
    expect((await rpc(server, { authorization })).status).toBe(200);
    expect((await rpc(server, { authorization })).status).toBe(200);
    const refused = await rpc(server, { authorization });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: expect.stringMatching(/per minute/), data: { code: "TOO_MANY_REQUESTS", reason: "rate_limit_exceeded" } },
    });
    // No key, no budget spent: authentication answers first.
    expect((await rpc(server, {})).status).toBe(401);
  });
});

describe("MCP under the key's concurrency cap", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ MAX_CONCURRENT_PER_KEY: "2" });
  });
  afterAll(() => server?.close());

  it("promises no tool-list changes, so a client that listens for them holds none of its key's concurrent requests", async () => {
    // Modern clients with a list-changed handler open a subscription stream when the server promises notifications.
    const options = { versionNegotiation: { mode: "auto" }, listChanged: { tools: { onChanged: () => {} } } } as McpClientOptions;
    const clients = [await mcpClient(server.url, server.key, options), await mcpClient(server.url, server.key, options)];
    try {
      expect(clients[0]!.getServerCapabilities()?.tools?.listChanged).not.toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const listed = await clients[0]!.callTool({ name: "list_sources", arguments: {} });
      expect(listed.isError).toBeFalsy();
      const models = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${server.key}` } });
      expect(models.status).toBe(200);
    } finally {
      for (const client of clients) await client.close();
    }
  });
});

describe("MCP ask_docs with a provider model", () => {
  let setup: ServerWithProviders;
  beforeAll(async () => {
    setup = await startServerWithProviders({ kind: "endless", intervalMs: 10 }, { AGENT_MODEL: "provider_a" });
  });
  afterAll(() => setup?.close());

  const waitFor = async (done: () => boolean) => {
    for (const deadline = Date.now() + 5000; !done() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    return done();
  };

  // A 2026-era client cancels by closing the call's stream; a 2025-era client's cancel notification cannot be
  // matched to its call without a session, so there generation stops when the client goes away.
  it.each([
    ["a 2026-era client cancels the call", "auto", "cancel"],
    ["a 2025-era client goes away", "legacy", "close"],
  ] as const)("stops generation when %s", async (_, mode, how) => {
    const { server, fake } = setup;
    const client = await mcpClient(server.url, server.key, { versionNegotiation: { mode } });
    const [requests, aborts] = [fake.requests.length, fake.clientAborts];
    const controller = new AbortController();
    const asked = client
      .callTool({ name: "ask_docs", arguments: { question: QUESTION, sources: [server.sources.pg] } }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(await waitFor(() => fake.requests.slice(requests).some((r) => r.path.endsWith("/chat/completions")))).toBe(true);
    if (how === "cancel") controller.abort("the user pressed stop");
    else await client.close();
    expect(await asked).toBeInstanceOf(Error);
    expect(await waitFor(() => fake.clientAborts > aborts)).toBe(true);
    expect(fake.clientAborts - aborts).toBe(1);
    await client.close();
  });

  it("answers with the model's refusal when it declines, citing nothing", async () => {
    const { server, fake } = setup;
    const refusal = "I can't help with that.";
    fake.queue({ kind: "reply", text: refusal, refusal: true });
    const client = await mcpClient(server.url, server.key);
    try {
      const result: any = await client.callTool({ name: "ask_docs", arguments: { question: QUESTION, sources: [server.sources.pg] } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ answer: refusal, references: [] });
      expect(result.content[0].text).toBe(refusal);
    } finally {
      await client.close();
    }
  });
});
