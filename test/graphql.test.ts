import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHUNK_FIELDS, COMPLETION_FIELDS, graphqlRequest, graphqlSseClient } from "./support/clients.ts";
import { pageOf, type ServerWithProviders, startServerWithProviders, startTestServer, type TestServer } from "./support/test-server.ts";

const STREAM = `subscription ($input: ChatCompletionInput!) { chatCompletionStream(input: $input) { ${CHUNK_FIELDS} } }`;
const CREATE = `mutation ($input: ChatCompletionInput!) { createChatCompletion(input: $input) { ${COMPLETION_FIELDS} } }`;

/** GraphQL at /graphql with the real graphql-sse client (both modes) and plain fetch. */
describe("GraphQL", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  const input = () => ({
    model: "agent",
    messages: [{ role: "user", content: "How do I physically reorder a table according to an index?" }],
    sources: [server.sources.pg],
  });

  it("serves no GraphiQL page: it would load a CDN's scripts on the origin where the playground keeps its key", async () => {
    const response = await fetch(`${server.url}/graphql`, { headers: { accept: "text/html", authorization: `Bearer ${server.key}` } });
    expect(response.headers.get("content-type") ?? "").not.toMatch(/text\/html/);
    expect(await response.text()).not.toMatch(/unpkg|<script/i);
  });

  it("answers queries: sources, source(id), models", async () => {
    const { body } = await graphqlRequest(
      server.url,
      server.key,
      `query ($id: ID!) { sources { id name baseUrl pages } source(id: $id) { name chunks } models { id resolvesTo available } }`,
      { id: server.sources.sqlite },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.sources.map((s: { name: string }) => s.name).sort()).toEqual(["PostgreSQL 15 Documentation", "SQLite Documentation"]);
    expect(body.data.source.name).toBe("SQLite Documentation");
    expect(body.data.models[0]).toEqual({ id: "agent", resolvesTo: "extractive/docent-extractive-1", available: true });
  });

  it("creates a completion with the spec's fields in GraphQL naming", async () => {
    const { body } = await graphqlRequest(server.url, server.key, CREATE, { input: input() });
    const completion = body.data.createChatCompletion;
    expect(completion).toMatchObject({
      object: "chat.completion",
      model: "agent",
      choices: [{ index: 0, finishReason: "stop", message: { role: "assistant" } }],
    });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.systemFingerprint).toMatch(/^fp_/);
    expect(pageOf(completion.urlReferences[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
    expect(completion.usage.completionTokensDetails.reasoningTokens).toBe(0);
  });

  it.each([
    ["distinct connections at /graphql", false],
    ["single connection at /graphql/stream", true],
  ])("streams the subscription with graphql-sse in %s mode", async (_mode, single) => {
    const client = graphqlSseClient(server.url, server.key, single);
    const chunks: any[] = [];
    for await (const result of client.iterate({ query: STREAM, variables: { input: { ...input(), streamOptions: { includeUsage: true } } } })) {
      expect(result.errors).toBeUndefined();
      chunks.push(result.data!.chatCompletionStream);
    }
    client.dispose();
    expect(chunks.length).toBeGreaterThan(5);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toMatch(/physically reordered based on the index information\. \[1\]/);
    // The references as they stand: none before the first citation, then the cited page first on every chunk.
    expect(chunks[0].urlReferences).toEqual([]);
    const cited = chunks.filter((c) => c.urlReferences.length > 0);
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.every((c) => pageOf(c.urlReferences[0]) === "https://www.postgresql.org/docs/15/sql-cluster.html")).toBe(true);
    expect(chunks.filter((c) => c.choices[0]?.finishReason === "stop")).toHaveLength(1);
    expect(chunks.at(-1).usage.totalTokens).toBeGreaterThan(0);
  });

  it("streams over Yoga's SSE to plain fetch with accept: text/event-stream", async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${server.key}` },
      body: JSON.stringify({ query: STREAM, variables: { input: input() } }),
    });
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const events = (await response.text()).split("\n\n").filter((e) => e.includes("data:"));
    const nexts = events.filter((e) => e.startsWith("event: next")).map((e) => JSON.parse(e.slice(e.indexOf("data:") + 5)).data.chatCompletionStream);
    expect(nexts.length).toBeGreaterThan(5);
    expect(events.at(-1)).toMatch(/^event: complete/);
  });

  it("rejects missing or wrong keys with UNAUTHENTICATED on every transport", async () => {
    const missing = await graphqlRequest(server.url, null, "{ models { id } }");
    expect(missing.status).toBe(401);
    expect(missing.body.errors![0]!.extensions!.code).toBe("UNAUTHENTICATED");
    const wrong = await graphqlRequest(server.url, "dk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "{ models { id } }");
    expect(wrong.body.errors![0]!.extensions!.code).toBe("UNAUTHENTICATED");

    for (const single of [false, true]) {
      const client = graphqlSseClient(server.url, "dk_wrong", single);
      const attempt = async () => {
        for await (const result of client.iterate({ query: STREAM, variables: { input: input() } })) {
          if (result.errors) throw new Error(JSON.stringify(result.errors));
        }
      };
      await expect(attempt()).rejects.toThrow(/401|UNAUTHENTICATED|Unauthorized/i);
      client.dispose();
    }
  });

  it("takes request bodies as JSON only: a form-encoded body, whose variables no JSON limit has seen, is refused", async () => {
    const form = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ query: "query ($v: String) { models { id } }", variables: JSON.stringify({ v: "x" }) }),
    });
    // RFC 9110: a media type not taken is a 415 that says which one is.
    expect(form.status).toBe(415);
    expect(form.headers.get("accept")).toBe("application/json");
    expect(((await form.json()) as { errors: Array<{ extensions: object }> }).errors[0]!.extensions).toMatchObject({ reason: "unsupported_media_type" });
    // The refusal names the type sent, cut short: a header of thousands of characters is not echoed whole.
    const long = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": `text/${"x".repeat(8000)}` },
      body: "{}",
    });
    expect(long.status).toBe(415);
    expect(((await long.json()) as { errors: Array<{ message: string }> }).errors[0]!.message.length).toBeLessThan(200);
    const json = await graphqlRequest(server.url, server.key, "{ models { id } }");
    expect(json.status).toBe(200);
    // JSON nested past the limit is refused before parsing, in GraphQL's error shape.
    const deep = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: `{"query":"{ models { id } }","variables":${"[".repeat(100)}${"]".repeat(100)}}`,
    });
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { errors: Array<{ extensions: object }> }).errors[0]!.extensions).toMatchObject({ reason: "json_too_deep" });
    // A GET carries its variables as JSON in the query string: the same limit applies there.
    const query = encodeURIComponent("query ($v: String) { models { id } }");
    const get = (variables: string) =>
      fetch(`${server.url}/graphql?query=${query}&variables=${encodeURIComponent(variables)}`, {
        headers: { authorization: `Bearer ${server.key}`, accept: "application/json" },
      });
    const deepGet = await get(`{"v":${"[".repeat(100)}${"]".repeat(100)}}`);
    expect(deepGet.status).toBe(400);
    expect(((await deepGet.json()) as { errors: Array<{ extensions: object }> }).errors[0]!.extensions).toMatchObject({ reason: "json_too_deep" });
    expect((await get(`{"v":"x"}`)).status).toBe(200);
    // Not JSON at all: a client's mistake (400 naming it), not an unexpected error.
    for (const name of ["variables", "extensions"]) {
      const broken = await fetch(`${server.url}/graphql?query=${query}&${name}=%7B`, {
        headers: { authorization: `Bearer ${server.key}`, accept: "application/json" },
      });
      expect(broken.status).toBe(400);
      expect(((await broken.json()) as { errors: Array<{ extensions: object }> }).errors[0]!.extensions).toMatchObject({ code: "BAD_REQUEST", param: name });
    }
  });

  it("reports bad input as BAD_USER_INPUT and unknown sources as NOT_FOUND, naming the parameter", async () => {
    const badRole = await graphqlRequest(server.url, server.key, CREATE, { input: { ...input(), messages: [{ role: "tool", content: "x" }] } });
    expect(badRole.body.errors![0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT", param: "messages[0].role" } });
    const unknown = await graphqlRequest(server.url, server.key, CREATE, { input: { ...input(), sources: ["00000000-0000-4000-8000-000000000000"] } });
    expect(unknown.body.errors![0]).toMatchObject({ extensions: { code: "NOT_FOUND", param: "sources[0]", reason: "source_not_found" } });
    // Variables graphql-js itself cannot coerce name the parameter too.
    const { model: _, ...noModel } = input();
    for (const [variables, param] of [
      [{ input: { ...input(), messages: [{ role: 5, content: "x" }] } }, "messages[0].role"],
      [{ input: noModel }, "model"],
      [{ input: { ...input(), sourcez: [] } }, "sourcez"],
      // The value graphql-js echoes may hold "; " (its strings are JSON): the path is still the one it names.
      [{ input: { ...input(), temperature: "warm; very" } }, "temperature"],
      [{ input: { ...input(), messages: [{ content: "Thanks; now how do I vacuum?" }] } }, "messages[0].role"],
      [{}, "input"],
    ] as const) {
      const coerced = await graphqlRequest(server.url, server.key, CREATE, variables);
      expect(coerced.body.errors![0], param).toMatchObject({ extensions: { code: "BAD_USER_INPUT", param } });
    }
  });

  it("gives every error a code, its own status and no parser internals, the stream endpoint's too", async () => {
    const auth = { authorization: `Bearer ${server.key}` };
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, { method: "POST", headers: { ...auth, "content-type": "application/json", ...headers }, body });
    const errorsOf = async (response: Response) =>
      ((await response.json()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> }).errors;

    // A body that is not JSON: 400 with Yoga's message, not the JSON parser's error (name, message, the body echoed back).
    for (const body of ["", '{"query":']) {
      const response = await post("/graphql", body);
      expect(response.status).toBe(400);
      const [error] = await errorsOf(response);
      expect(error).toEqual({ message: "POST body sent invalid JSON.", extensions: { code: "BAD_REQUEST" } });
    }
    // A variable graphql-js cannot coerce.
    const coerced = await post("/graphql", JSON.stringify({ query: "query ($id: ID!) { source(id: $id) { name } }", variables: { id: { a: 1 } } }));
    expect(coerced.status).toBe(400);
    expect((await errorsOf(coerced))[0]!.extensions.code).toBe("BAD_USER_INPUT");

    // graphql-sse answers these itself, with no code or no body at all.
    const token = await (await fetch(`${server.url}/graphql/stream`, { method: "PUT", headers: auth })).text();
    const reserved = await (await fetch(`${server.url}/graphql/stream`, { method: "PUT", headers: auth })).text();
    // Operations go into an open stream.
    const open = new AbortController();
    const opened = await fetch(`${server.url}/graphql/stream?token=${token}`, { headers: { accept: "text/event-stream" }, signal: open.signal });
    expect(opened.status).toBe(200);
    const cases: Array<[Promise<Response>, number, string]> = [
      [
        post("/graphql/stream", JSON.stringify({ query: "{ __typename }", extensions: { operationId: "x" } }), { "x-graphql-event-stream-token": "unknown" }),
        404,
        "NOT_FOUND",
      ],
      [post("/graphql/stream", JSON.stringify({ query: "{ __typename }" }), { "x-graphql-event-stream-token": token }), 400, "BAD_REQUEST"],
      [
        post("/graphql/stream", JSON.stringify({ query: "{ __typename }", extensions: { operationId: "y" } }), { "x-graphql-event-stream-token": reserved }),
        409,
        "CONFLICT",
      ],
      [fetch(`${server.url}/graphql/stream`, { method: "PUT", headers: { ...auth, accept: "application/json" } }), 406, "NOT_ACCEPTABLE"],
    ];
    for (const [sent, status, code] of cases) {
      const response = await sent;
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const [error] = await errorsOf(response);
      expect(error!.message).toMatch(/\w/);
      expect(error!.extensions.code).toBe(code);
    }
    open.abort();
  });
});

/** What a subscription's errors do on both graphql-sse transports: reach the client, never the process. */
describe("GraphQL subscription errors", () => {
  let running: ServerWithProviders;
  beforeAll(async () => {
    running = await startServerWithProviders({ kind: "reply", text: "Use CLUSTER [1]." });
  });
  afterAll(() => running.close());
  const collect = async (single: boolean, input: object) => {
    const client = graphqlSseClient(running.server.url, running.server.key, single);
    const results: Array<{ data?: any; errors?: any[] }> = [];
    try {
      for await (const result of client.iterate({ query: STREAM, variables: { input } })) results.push(result as any);
    } catch (error: any) {
      // Distinct connections: an error before any event is the HTTP response itself.
      if (error?.response) results.push({ errors: [{ status: error.response.status }] });
      else results.push({ errors: Array.isArray(error) ? error : [error] });
    } finally {
      client.dispose();
    }
    return results;
  };
  const healthy = async () => (await fetch(`${running.server.url}/healthz`)).status;
  const ask = { messages: [{ role: "user", content: "How do I physically reorder a table according to an index?" }] };

  it("an error before the stream begins is the subscription's error, and the server keeps serving", async () => {
    for (const single of [false, true]) {
      const unknownModel = await collect(single, { ...ask, model: "nope" });
      const unknownSource = await collect(single, { ...ask, model: "agent", sources: ["00000000-0000-4000-8000-000000000000"] });
      // Both transports: a GraphQL error in an event (as for a mutation), not a dropped connection.
      expect(unknownModel.at(-1)!.errors![0]).toMatchObject({ extensions: { code: "NOT_FOUND", param: "model" } });
      expect(unknownSource.at(-1)!.errors![0]).toMatchObject({ extensions: { code: "NOT_FOUND", param: "sources[0]" } });
      expect(await healthy()).toBe(200);
    }
  });

  it("an error after the stream began ends it with that error after the chunks so far", async () => {
    for (const single of [false, true]) {
      running.fake.queue({ kind: "stream-error", text: "Use CLUSTER with", message: "upstream overloaded" });
      const results = await collect(single, { ...ask, model: "provider_a" });
      const chunks = results.filter((r) => r.data?.chatCompletionStream);
      expect(chunks.map((r) => r.data.chatCompletionStream.choices[0]?.delta.content ?? "").join("")).toContain("Use CLUSTER");
      const last = results.at(-1)!;
      expect(last.errors![0]).toMatchObject({ extensions: { code: "BAD_GATEWAY" } });
      expect(await healthy()).toBe(200);
    }
  });
});
