import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHUNK_FIELDS, COMPLETION_FIELDS, graphqlRequest, graphqlSseClient, mcpClient, trpcClient } from "./support/clients.ts";
import { type FakeProviderServer, startFakeProviderServer } from "./support/fake-provider-server.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

const STREAM = `subscription ($input: ChatCompletionInput!) { chatCompletionStream(input: $input) { ${CHUNK_FIELDS} } }`;
const CREATE = `mutation ($input: ChatCompletionInput!) { createChatCompletion(input: $input) { ${COMPLETION_FIELDS} } }`;

interface Outcome {
  text: string;
  /** A model's refusal, said apart from the text. */
  refusal: string;
  urlReferences: string[];
  finishReason: string;
  usage: { prompt: number; completion: number; total: number; reasoning: number };
}

/** REST, GraphQL, tRPC, Responses and MCP are one pipeline: the same request gives the same outcome on each. */
describe("parity of REST, GraphQL, tRPC, Responses and MCP", () => {
  let server: TestServer;
  let fake: FakeProviderServer;
  let openai: OpenAI;
  beforeAll(async () => {
    fake = await startFakeProviderServer({ kind: "endless", intervalMs: 10 });
    server = await startTestServer({ OPENAI_API_KEY: "sk-x", OPENAI_BASE_URL: fake.openaiBaseUrl, AGENT_MODEL: "extractive" });
    openai = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  const rest = {
    create: async (body: any): Promise<Outcome> => {
      const c: any = await openai.chat.completions.create(body);
      return {
        text: c.choices[0].message.content ?? "",
        refusal: c.choices[0].message.refusal ?? "",
        urlReferences: c.url_references,
        finishReason: c.choices[0].finish_reason,
        usage: {
          prompt: c.usage.prompt_tokens,
          completion: c.usage.completion_tokens,
          total: c.usage.total_tokens,
          reasoning: c.usage.completion_tokens_details.reasoning_tokens,
        },
      };
    },
    stream: async (body: any): Promise<Outcome> => {
      const chunks: any[] = [];
      for await (const chunk of await openai.chat.completions.create({
        ...body,
        stream: true,
        stream_options: { include_usage: true },
      } as OpenAI.Chat.ChatCompletionCreateParamsStreaming))
        chunks.push(chunk);
      return fromSnakeChunks(chunks);
    },
  };
  const graphql = {
    create: async (body: any): Promise<Outcome> => {
      const { body: result } = await graphqlRequest(server.url, server.key, CREATE, { input: toGraphQL(body) });
      const c = result.data.createChatCompletion;
      return {
        text: c.choices[0].message.content ?? "",
        refusal: c.choices[0].message.refusal ?? "",
        urlReferences: c.urlReferences,
        finishReason: c.choices[0].finishReason,
        usage: fromCamelUsage(c.usage),
      };
    },
    stream: async (body: any): Promise<Outcome> => {
      const client = graphqlSseClient(server.url, server.key, false);
      const chunks: any[] = [];
      for await (const r of client.iterate({ query: STREAM, variables: { input: { ...toGraphQL(body), streamOptions: { includeUsage: true } } } }))
        chunks.push(r.data!.chatCompletionStream);
      client.dispose();
      const last = chunks.at(-1);
      return {
        text: chunks.map((c) => c.choices[0]?.delta.content ?? "").join(""),
        refusal: chunks.map((c) => c.choices[0]?.delta.refusal ?? "").join(""),
        urlReferences: chunks.find((c) => c.choices[0]?.finishReason)?.urlReferences,
        finishReason: chunks.find((c) => c.choices[0]?.finishReason)?.choices[0].finishReason,
        usage: fromCamelUsage(last.usage),
      };
    },
  };
  const trpc = {
    create: async (body: any): Promise<Outcome> => {
      const c = await trpcClient(server.url, server.key).chat.completions.create.mutate(body);
      return {
        text: c.choices[0]!.message.content ?? "",
        refusal: c.choices[0]!.message.refusal ?? "",
        urlReferences: c.url_references,
        finishReason: c.choices[0]!.finish_reason,
        usage: {
          prompt: c.usage.prompt_tokens,
          completion: c.usage.completion_tokens,
          total: c.usage.total_tokens,
          reasoning: c.usage.completion_tokens_details.reasoning_tokens,
        },
      };
    },
    stream: async (body: any): Promise<Outcome> => {
      const chunks: any[] = [];
      await new Promise<void>((resolve, reject) => {
        const sub = trpcClient(server.url, server.key).chat.completions.stream.subscribe(
          { ...body, stream_options: { include_usage: true } },
          {
            onData: (c) => chunks.push(c),
            onError: reject,
            onComplete: () => {
              sub.unsubscribe();
              resolve();
            },
          },
        );
      });
      return fromSnakeChunks(chunks);
    },
  };

  const responses = {
    create: async (body: any): Promise<Outcome> => fromResponse(await openai.responses.create(toResponses(body))),
    stream: async (body: any): Promise<Outcome> => {
      const events: any[] = [];
      for await (const event of await openai.responses.create({ ...toResponses(body), stream: true } as OpenAI.Responses.ResponseCreateParamsStreaming))
        events.push(event);
      const completed = events.at(-1);
      expect(completed.type).toBe("response.completed");
      const outcome = fromResponse(completed.response);
      return {
        ...outcome,
        text: events
          .filter((e) => e.type === "response.output_text.delta")
          .map((e) => e.delta)
          .join(""),
        refusal: events
          .filter((e) => e.type === "response.refusal.delta")
          .map((e) => e.delta)
          .join(""),
      };
    },
  };

  const requests = () => ({
    "explicit sources, with references": {
      model: "agent",
      messages: [{ role: "user", content: "How do I build an index without locking writes?" }],
      sources: [server.sources.pg],
      include_references: true,
    },
    "agent mode, multi-turn": {
      model: "agent",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What does the SQLite VACUUM command do?" },
        { role: "assistant", content: "It rebuilds the database file." },
        { role: "user", content: "And VACUUM INTO?" },
      ],
    },
  });

  it.each(["explicit sources, with references", "agent mode, multi-turn"] as const)(
    "%s: same text, references, finish reason and usage, streamed and not",
    async (name) => {
      const body = requests()[name];
      const outcomes = {
        REST: await rest.create(body),
        "REST stream": await rest.stream(body),
        GraphQL: await graphql.create(body),
        "GraphQL stream": await graphql.stream(body),
        tRPC: await trpc.create(body),
        "tRPC stream": await trpc.stream(body),
        Responses: await responses.create(body),
        "Responses stream": await responses.stream(body),
      };
      const reference = outcomes.REST;
      expect(reference.text.length).toBeGreaterThan(20);
      expect(reference.urlReferences.length).toBeGreaterThan(0);
      for (const [label, outcome] of Object.entries(outcomes)) expect({ label, ...outcome }).toEqual({ label, ...reference });
    },
  );

  it("a model's refusal: the same refusal, no text and no page on each, streamed and not", async () => {
    const refusal = "I can't help with that.";
    const body = {
      model: "provider_a",
      messages: [{ role: "user", content: "How do I build an index without locking writes?" }],
      sources: [server.sources.pg],
    };
    const collectors = {
      REST: rest.create,
      "REST stream": rest.stream,
      GraphQL: graphql.create,
      "GraphQL stream": graphql.stream,
      tRPC: trpc.create,
      "tRPC stream": trpc.stream,
      Responses: responses.create,
      "Responses stream": responses.stream,
    };
    const outcomes: Record<string, Omit<Outcome, "usage">> = {};
    for (const [label, collect] of Object.entries(collectors)) {
      fake.queue({ kind: "reply", text: refusal, refusal: true });
      const { usage, ...outcome } = await collect(body);
      expect(usage.completion).toBeGreaterThan(0);
      outcomes[label] = outcome;
    }
    for (const [label, outcome] of Object.entries(outcomes))
      expect({ label, ...outcome }).toEqual({ label, text: "", refusal, urlReferences: [], finishReason: "stop" });
  });

  // ask_docs takes one question, without include_references: compared with the same chat request.
  it.each([
    ["explicit sources", "How do I build an index without locking writes?", true],
    ["agent mode", "What does the SQLite VACUUM command do?", false],
  ] as const)("MCP ask_docs, %s: the same answer text and references as chat completions", async (_, question, explicit) => {
    const sources = explicit ? [server.sources.pg] : undefined;
    const chat = await rest.create({ model: "agent", messages: [{ role: "user", content: question }], sources });
    const mcp = await mcpClient(server.url, server.key);
    try {
      const result: any = await mcp.callTool({ name: "ask_docs", arguments: { question, sources } });
      expect(result.isError).toBeFalsy();
      expect(chat.urlReferences.length).toBeGreaterThan(0);
      expect({ text: result.structuredContent.answer, urlReferences: result.structuredContent.references.map((r: { url: string }) => r.url) }).toEqual({
        text: chat.text,
        urlReferences: chat.urlReferences,
      });
      // The same refusal too, as a tool error.
      const unknown = "00000000-0000-4000-8000-000000000000";
      const restError: any = await openai.chat.completions
        .create({ model: "agent", messages: [{ role: "user", content: question }], sources: [unknown] } as never)
        .catch((e) => e);
      const mcpError: any = await mcp.callTool({ name: "ask_docs", arguments: { question, sources: [unknown] } });
      expect(mcpError.isError).toBe(true);
      expect(mcpError.content[0].text).toContain(restError.error.message);
    } finally {
      await mcp.close();
    }
  });

  it("says the same thing about invalid input in each protocol's form", async () => {
    const body = {
      model: "agent",
      messages: [
        { role: "user", content: "hi" },
        { role: "function", content: "x" },
      ],
    };
    const restError: any = await openai.chat.completions.create(body as never).catch((e) => e);
    const gqlError = (await graphqlRequest(server.url, server.key, CREATE, { input: toGraphQL(body) })).body.errors![0]!;
    const trpcError: any = await trpcClient(server.url, server.key)
      .chat.completions.create.mutate(body as never)
      .catch((e) => e);
    expect(restError.status).toBe(400);
    expect(restError.param).toBe("messages[1].role");
    expect(gqlError.message).toBe(restError.error.message);
    expect(gqlError.extensions).toMatchObject({ code: "BAD_USER_INPUT", param: "messages[1].role" });
    expect(trpcError.message).toBe(restError.error.message);
    expect(trpcError.data).toMatchObject({ code: "BAD_REQUEST", param: "messages[1].role" });
  });

  it("closing the stream aborts generation on every interface", async () => {
    const body = {
      model: "provider_a",
      messages: [{ role: "user", content: "How do I build an index without locking writes?" }],
      sources: [server.sources.pg],
    };
    const waitForAbort = async (before: number) => {
      const deadline = Date.now() + 5000;
      while (fake.clientAborts === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return fake.clientAborts - before;
    };

    let before = fake.clientAborts;
    const controller = new AbortController();
    const stream = await openai.chat.completions.create({ ...(body as any), stream: true } as OpenAI.Chat.ChatCompletionCreateParamsStreaming, {
      signal: controller.signal,
    });
    let n = 0;
    try {
      for await (const _ of stream) if (++n === 3) controller.abort();
    } catch {}
    expect(await waitForAbort(before)).toBe(1);

    for (const single of [false, true]) {
      before = fake.clientAborts;
      const client = graphqlSseClient(server.url, server.key, single);
      const iterator = client.iterate({ query: STREAM, variables: { input: toGraphQL(body) } });
      let seen = 0;
      for await (const _ of iterator) if (++seen === 3) break;
      client.dispose();
      expect(await waitForAbort(before)).toBe(1);
    }

    before = fake.clientAborts;
    const responsesController = new AbortController();
    const events = await openai.responses.create({ ...toResponses(body), stream: true } as OpenAI.Responses.ResponseCreateParamsStreaming, {
      signal: responsesController.signal,
    });
    n = 0;
    try {
      for await (const _ of events) if (++n === 6) responsesController.abort();
    } catch {}
    expect(await waitForAbort(before)).toBe(1);

    before = fake.clientAborts;
    await new Promise<void>((resolve, reject) => {
      let seen = 0;
      const sub = trpcClient(server.url, server.key).chat.completions.stream.subscribe(body as never, {
        onData: () => {
          if (++seen === 3) {
            sub.unsubscribe();
            resolve();
          }
        },
        onError: reject,
      });
    });
    expect(await waitForAbort(before)).toBe(1);
  });
});

/** The chat request as a Responses request: the messages are the input, docent's extensions as they are. */
function toResponses(body: any): any {
  return { model: body.model, input: body.messages, sources: body.sources, include_references: body.include_references };
}

function fromResponse(r: any): Outcome {
  const finishReason = r.status === "completed" ? "stop" : r.incomplete_details?.reason === "max_output_tokens" ? "length" : r.status;
  const u = r.usage;
  return {
    text: r.output[0].content
      .filter((c: any) => c.type === "output_text")
      .map((c: any) => c.text)
      .join(""),
    refusal: r.output[0].content
      .filter((c: any) => c.type === "refusal")
      .map((c: any) => c.refusal)
      .join(""),
    urlReferences: r.url_references,
    finishReason,
    usage: { prompt: u.input_tokens, completion: u.output_tokens, total: u.total_tokens, reasoning: u.output_tokens_details.reasoning_tokens },
  };
}

function toGraphQL(body: any) {
  return { model: body.model, messages: body.messages, sources: body.sources, includeReferences: body.include_references };
}

function fromCamelUsage(u: any) {
  return { prompt: u.promptTokens, completion: u.completionTokens, total: u.totalTokens, reasoning: u.completionTokensDetails.reasoningTokens };
}

function fromSnakeChunks(chunks: any[]): Outcome {
  const u = chunks.at(-1).usage;
  return {
    text: chunks.map((c) => c.choices[0]?.delta.content ?? "").join(""),
    refusal: chunks.map((c) => c.choices[0]?.delta.refusal ?? "").join(""),
    urlReferences: chunks.find((c) => c.choices[0]?.finish_reason)?.url_references,
    finishReason: chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason,
    usage: { prompt: u.prompt_tokens, completion: u.completion_tokens, total: u.total_tokens, reasoning: u.completion_tokens_details.reasoning_tokens },
  };
}
