import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHUNK_FIELDS, COMPLETION_FIELDS, graphqlRequest, graphqlSseClient } from "./support/clients.ts";
import { pageOf, startTestServer, type TestServer } from "./support/test-server.ts";

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
    expect(chunks.every((c) => pageOf(c.urlReferences[0]) === "https://www.postgresql.org/docs/15/sql-cluster.html")).toBe(true);
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

  it("reports bad input as BAD_USER_INPUT and unknown sources as NOT_FOUND, naming the parameter", async () => {
    const badRole = await graphqlRequest(server.url, server.key, CREATE, { input: { ...input(), messages: [{ role: "tool", content: "x" }] } });
    expect(badRole.body.errors![0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT", param: "messages[0].role" } });
    const unknown = await graphqlRequest(server.url, server.key, CREATE, { input: { ...input(), sources: ["00000000-0000-4000-8000-000000000000"] } });
    expect(unknown.body.errors![0]).toMatchObject({ extensions: { code: "NOT_FOUND", param: "sources[0]", reason: "source_not_found" } });
  });
});
