import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlRequest, trpcClient } from "./support/clients.ts";
import type { FakeProviderServer } from "./support/fake-provider-server.ts";
import { pageOf, type ServerWithProviders, startServerWithProviders, startTestServer, type TestServer } from "./support/test-server.ts";

const SCHEMA = {
  type: "object",
  properties: { command: { type: "string" }, explanation: { type: "string" } },
  required: ["command", "explanation"],
  additionalProperties: false,
};
const RESPONSE_FORMAT = { type: "json_schema", json_schema: { name: "sql_answer", schema: SCHEMA, strict: true } };
const VALID = '{"command": "CLUSTER employees USING employees_ind;", "explanation": "Reorders the table by the index [1]."}';
const INVALID = '{"command": 42}';

/** response_format end to end, against local servers speaking OpenAI's and Anthropic's protocols. */
describe("structured output", () => {
  let fake: FakeProviderServer;
  let server: TestServer;
  let client: OpenAI;
  let running: ServerWithProviders;
  beforeAll(async () => {
    running = await startServerWithProviders(
      { kind: "reply", text: VALID },
      {
        AGENT_MODEL: "extractive",
        AGENT_STRUCTURED_MODEL: "anthropic:claude-structured",
      },
    );
    ({ fake, server, client } = running);
  });
  afterAll(() => running.close());

  const body = (model: string, extra: object = {}) => ({
    model,
    messages: [{ role: "user", content: "How do I physically reorder a table according to an index?" }],
    sources: [server.sources.pg],
    response_format: RESPONSE_FORMAT,
    ...extra,
  });
  const post = (b: object) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify(b),
    });

  it("provider_a passes the schema through OpenAI's structured outputs", async () => {
    const completion: any = await client.chat.completions.create(body("provider_a") as never);
    expect(JSON.parse(completion.choices[0].message.content)).toEqual(JSON.parse(VALID));
    expect(pageOf(completion.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
    const sent = fake.requests.at(-1)!.body;
    expect(sent.response_format).toEqual({ type: "json_schema", json_schema: { name: "sql_answer", schema: SCHEMA, strict: true } });
    expect(sent.messages[0].content).toContain("Reply with JSON only");
    // The reply's [n] are the context's numbers (not renumbered): url_references lists the excerpts in that order.
    const numbered = [
      ...sent.messages
        .map((m: { content: string }) => m.content)
        .join("\n")
        .matchAll(/^\[(\d+)\] .* \((\S+)\)$/gm),
    ].map((m) => [Number(m[1]), m[2]]);
    expect(completion.url_references).toEqual([...new Map(numbered.map(([n, url]) => [n, url])).values()]);
  });

  it("provider_b constrains Anthropic's output to the schema with output_config.format", async () => {
    const completion: any = await client.chat.completions.create(body("provider_b") as never);
    expect(JSON.parse(completion.choices[0].message.content).command).toContain("CLUSTER");
    expect(fake.requests.at(-1)!.body.output_config).toEqual({ format: { type: "json_schema", schema: SCHEMA } });
  });

  it("json_object mode is native too", async () => {
    await client.chat.completions.create(body("provider_a", { response_format: { type: "json_object" } }) as never);
    expect(fake.requests.at(-1)!.body.response_format).toEqual({ type: "json_object" });
  });

  it("repairs an invalid reply once, then serves the valid one", async () => {
    fake.queue({ kind: "reply", text: INVALID }, { kind: "reply", text: VALID, usage: { input: 10, output: 5 } });
    const before = fake.requests.length;
    const completion: any = await client.chat.completions.create(body("provider_a") as never);
    expect(completion.choices[0].message.content).toBe(VALID);
    expect(fake.requests.length).toBe(before + 2);
    const repair = fake.requests.at(-1)!.body.messages;
    expect(repair.at(-2)).toEqual({ role: "assistant", content: INVALID });
    expect(repair.at(-1).content).toMatch(/does not match the required JSON schema.*\/command must be string/);
  });

  it("rejects output that is still invalid after the repair, streamed or not", async () => {
    fake.queue({ kind: "reply", text: INVALID }, { kind: "reply", text: "not json at all" });
    const response = await post(body("provider_a"));
    expect(response.status).toBe(502);
    expect(((await response.json()) as any).error).toMatchObject({ code: "invalid_structured_output" });

    // Streamed, the reply is whole before any of it is sent: refused with its status, not after a 200 has begun.
    fake.queue({ kind: "reply", text: INVALID }, { kind: "reply", text: INVALID });
    const streamed = await post(body("provider_b", { stream: true }));
    expect(streamed.status).toBe(502);
    expect(streamed.headers.get("content-type")).toMatch(/^application\/json/);
    const refused = await streamed.text();
    expect(JSON.parse(refused).error.code).toBe("invalid_structured_output");
    expect(refused).not.toContain('"command"');
  });

  it("a model that declines is answered with its refusal, as OpenAI's parse helper reads it: no repair, no 502, no page", async () => {
    const refusal = "I'm sorry, I can't help with that.";
    fake.queue({ kind: "reply", text: refusal, refusal: true });
    const before = fake.requests.length;
    const parsed: any = await client.chat.completions.parse(body("provider_a") as never);
    expect(fake.requests.length).toBe(before + 1);
    expect(parsed.choices[0].message).toMatchObject({ content: null, refusal, parsed: null });
    expect(parsed.choices[0].finish_reason).toBe("stop");
    expect(parsed.url_references).toEqual([]);

    // Asked to repair an invalid reply, a model may decline then: that is the answer too.
    fake.queue({ kind: "reply", text: INVALID }, { kind: "reply", text: refusal, refusal: true });
    const streamed = await client.chat.completions.create({
      ...(body("provider_a") as object),
      stream: true,
    } as never as OpenAI.Chat.ChatCompletionCreateParamsStreaming);
    const chunks: any[] = [];
    for await (const chunk of streamed) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.delta.refusal ?? "").join("")).toBe(refusal);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("");
    expect(chunks.every((c) => c.url_references.length === 0)).toBe(true);
  });

  it("streams the JSON as deltas whose concatenation is the non-streamed content and validates", async () => {
    const whole: any = await client.chat.completions.create(body("provider_a") as never);
    const stream = await client.chat.completions.create({
      ...(body("provider_a") as object),
      stream: true,
    } as never as OpenAI.Chat.ChatCompletionCreateParamsStreaming);
    const deltas: string[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(whole.choices[0].message.content);
    expect(Object.keys(JSON.parse(deltas.join("")))).toEqual(["command", "explanation"]);
  });

  it("the agent switches to AGENT_STRUCTURED_MODEL for JSON, keeping its sources and references", async () => {
    const text = await post({ ...body("agent"), response_format: undefined });
    expect(text.headers.get("x-docent-model")).toBe("extractive/docent-extractive-1");
    const json = await post(body("agent"));
    expect(json.headers.get("x-docent-model")).toBe("anthropic/claude-structured");
    const completion = (await json.json()) as any;
    expect(completion.model).toBe("agent");
    expect(JSON.parse(completion.choices[0].message.content)).toEqual(JSON.parse(VALID));
    expect(pageOf(completion.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
    expect(fake.requests.at(-1)!.body.model).toBe("claude-structured");
    const models = (await client.models.list()).data as any[];
    expect(models[0]).toMatchObject({ id: "agent", resolves_to: "extractive/docent-extractive-1", structured_resolves_to: "anthropic/claude-structured" });
  });

  it("validates response_format up front", async () => {
    const badSchema = await post(body("provider_a", { response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "objekt" } } } }));
    expect(badSchema.status).toBe(400);
    expect(((await badSchema.json()) as any).error).toMatchObject({ param: "response_format", code: "invalid_schema" });
    const badType = await post(body("provider_a", { response_format: { type: "yaml" } }));
    expect(badType.status).toBe(400);
    expect(((await badType.json()) as any).error.param).toMatch(/^response_format/);
    const withRefs = await post(body("provider_a", { include_references: true }));
    expect(withRefs.status).toBe(400);
  });

  it("works the same over GraphQL (responseFormat) and tRPC", async () => {
    const { body: gql } = await graphqlRequest(
      server.url,
      server.key,
      `mutation ($input: ChatCompletionInput!) { createChatCompletion(input: $input) { urlReferences choices { message { content } } } }`,
      {
        input: {
          model: "agent",
          messages: [{ role: "user", content: "How do I physically reorder a table according to an index?" }],
          sources: [server.sources.pg],
          responseFormat: RESPONSE_FORMAT,
        },
      },
    );
    expect(JSON.parse(gql.data.createChatCompletion.choices[0].message.content)).toEqual(JSON.parse(VALID));
    const viaTrpc = await trpcClient(server.url, server.key).chat.completions.create.mutate(body("agent") as never);
    expect(JSON.parse(viaTrpc.choices[0]!.message.content!)).toEqual(JSON.parse(VALID));
  });
});

describe("structured output without any provider", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("fails clearly, saying what to configure, instead of faking JSON", async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: "What does VACUUM do?" }], response_format: RESPONSE_FORMAT }),
    });
    expect(response.status).toBe(400);
    const error = ((await response.json()) as any).error;
    expect(error).toMatchObject({ param: "response_format", code: "structured_output_unavailable" });
    expect(error.message).toMatch(/OPENAI_API_KEY or ANTHROPIC_API_KEY/);
  });
});
