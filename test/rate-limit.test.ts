import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { graphqlRequest, trpcClient } from "./support/clients.ts";
import { type ServerWithProviders, startServerWithProviders, startTestServer, type TestServer } from "./support/test-server.ts";

/**
 * RATE_LIMIT_PER_MINUTE and MAX_CONCURRENT_PER_KEY over REST: 429 in
 * OpenAI's shape with Retry-After, seen by the real openai SDK; a streamed
 * answer holds its slot until the stream ends or the client goes away.
 */
const question = { role: "user" as const, content: "How do I physically reorder a table according to an index?" };

/** What the SDK threw, as a RateLimitError. */
async function rateLimited(attempt: Promise<unknown>): Promise<InstanceType<typeof OpenAI.RateLimitError>> {
  const error = await attempt.then(
    () => new Error("expected a 429, got an answer"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.RateLimitError);
  return error as InstanceType<typeof OpenAI.RateLimitError>;
}

describe("requests per minute per key", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: "2" });
  });
  afterAll(() => server.close());

  it("answers 429 rate_limit_exceeded with Retry-After past the budget, after authentication", async () => {
    const client = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await client.models.list();
    await client.chat.completions.create({ model: "agent", messages: [question], sources: [server.sources.pg] } as never);
    const error = await rateLimited(client.models.list());
    expect(error.status).toBe(429);
    expect(error.code).toBe("rate_limit_exceeded");
    expect(error.type).toBe("rate_limit_error");
    expect(error.message).toMatch(/2 requests per minute\. Try again in \d+ s\./);
    const retryAfter = Number(error.headers?.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const raw = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${server.key}` } });
    expect(raw.status).toBe(429);
    expect(await raw.json()).toEqual({
      error: { message: expect.stringMatching(/per minute/), type: "rate_limit_error", param: null, code: "rate_limit_exceeded" },
    });
    // No key, no budget to spend: authentication answers first.
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(401);
    // Another key has its own budget.
    const other = await server.services.keys.create("other");
    expect((await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${other.key}` } })).status).toBe(200);
  });

  it("counts GraphQL and tRPC requests in the same budget and refuses them in their own error forms", async () => {
    const key = (await server.services.keys.create("graphql and trpc")).key;
    expect((await graphqlRequest(server.url, key, "{ models { id } }")).status).toBe(200);
    expect(await trpcClient(server.url, key).models.list.query()).toHaveLength(3);
    const graphql = await graphqlRequest(server.url, key, "{ models { id } }");
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: "TOO_MANY_REQUESTS", reason: "rate_limit_exceeded" });
    expect(Number(graphql.headers.get("retry-after"))).toBeGreaterThan(0);
    await expect(trpcClient(server.url, key).models.list.query()).rejects.toMatchObject({ data: { code: "TOO_MANY_REQUESTS", httpStatus: 429 } });
    const trpc = await fetch(`${server.url}/trpc/models.list`, { headers: { authorization: `Bearer ${key}` } });
    expect(trpc.status).toBe(429);
    expect(Number(trpc.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("batches count each call", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: "3" });
  });
  afterAll(() => server.close());

  it("a tRPC batch of four calls is four requests of a budget of three; refused, it counts as one request", async () => {
    const key = (await server.services.keys.create("trpc batch")).key;
    const client = trpcClient(server.url, key);
    // httpBatchLink sends calls made in one tick as one request.
    const four = Promise.allSettled([0, 1, 2, 3].map(() => client.models.list.query()));
    for (const result of await four) expect(result).toMatchObject({ status: "rejected", reason: { data: { code: "TOO_MANY_REQUESTS" } } });
    const two = await Promise.allSettled([0, 1].map(() => client.models.list.query()));
    expect(two.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    await expect(client.models.list.query()).rejects.toMatchObject({ data: { code: "TOO_MANY_REQUESTS" } });
  });

  it("a tRPC batch whose commas are written %2C counts each call too", async () => {
    const key = (await server.services.keys.create("encoded batch")).key;
    const response = await fetch(`${server.url}/trpc/${["models.list", "models.list", "models.list", "models.list"].join("%2C")}?batch=1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(429);
  });

  it("an MCP batch of tool calls counts each call", async () => {
    const key = (await server.services.keys.create("mcp batch")).key;
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "list_sources", arguments: {} } });
    const post = (body: unknown) =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      });
    // Past tRPC's batch size too: forty calls are forty requests.
    expect((await post(Array.from({ length: 40 }, (_, i) => call(i)))).status).toBe(429);
    const four = await post([1, 2, 3, 4].map(call));
    expect(four.status).toBe(429);
    expect(four.headers.get("retry-after")).toMatch(/^\d+$/);
    // Refused, each batch counted as one request: one call of the three is left.
    expect((await post(call(3))).status).toBe(200);
    expect((await post(call(4))).status).toBe(429);
  });

  it("an MCP batch counts each of its requests, not only tool calls", async () => {
    const key = (await server.services.keys.create("mcp list batch")).key;
    const post = (body: unknown) =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      });
    const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
    // Four tools/list (each replies with every tool's description) are four requests of a budget of three.
    expect((await post([1, 2, 3, 4].map(list))).status).toBe(429);
    // Refused, it counted as one request: a batch of two fits, then nothing more.
    const two = await post([1, 2].map(list));
    expect(two.status).toBe(200);
    // One server-sent event per answer.
    const answers = [...(await two.text()).matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as { id: number });
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect((await post(list(5))).status).toBe(429);
  });
});

describe("requests in progress per key", () => {
  let running: ServerWithProviders;
  beforeAll(async () => {
    running = await startServerWithProviders({ kind: "reply", text: "Use CLUSTER [1]." }, { MAX_CONCURRENT_PER_KEY: "1" });
  });
  afterAll(() => running.close());
  const params = (extra: object = {}) =>
    ({ model: "provider_a", messages: [question], sources: [running.server.sources.pg], ...extra }) as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

  it("a slow streamed answer holds the slot until its stream ends", async () => {
    const { client, fake, server } = running;
    fake.queue({ kind: "reply", text: "One two three four five six seven eight [1].", delayMs: 50 });
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify(params({ stream: true })),
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("x-docent-model")).toMatch(/^openai\//);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);

    const error = await rateLimited(client.chat.completions.create(params()));
    expect(error.code).toBe("rate_limit_exceeded");
    expect(error.message).toMatch(/1 request in progress/);
    expect(error.headers?.get("retry-after")).toBe("1");

    let text = "";
    const decoder = new TextDecoder();
    for (let part = await reader.read(); !part.done; part = await reader.read()) text += decoder.decode(part.value);
    expect(text).toContain("data: [DONE]");
    expect((await client.chat.completions.create(params())).choices[0]!.message.content).toBe("Use CLUSTER [1].");
  });

  it("a stream whose client went away gives its slot back", async () => {
    const { client, fake } = running;
    fake.queue({ kind: "endless", intervalMs: 20 });
    const before = fake.clientAborts;
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ ...params(), stream: true }, { signal: controller.signal });
    for await (const _ of stream) break;
    await rateLimited(client.chat.completions.create(params()));
    controller.abort();
    // The slot is given back before the provider call is cancelled, so once the provider sees it go, the slot is free.
    await vi.waitFor(() => expect(fake.clientAborts).toBe(before + 1), { timeout: 5000 });
    expect((await client.chat.completions.create(params())).choices[0]!.message.content).toBe("Use CLUSTER [1].");
  });

  // httpBatchStreamLink sends trpc-accept; tRPC streams for a plain Accept naming application/jsonl too.
  it.each(["trpc-accept", "accept"])("a streamed tRPC batch (%s: application/jsonl) holds its slot until its body ends", async (header) => {
    const { client, fake, server } = running;
    fake.queue({ kind: "reply", text: "Slow answer [1].", delayMs: 300 });
    const sent = fake.requests.length;
    const streamed = fetch(`${server.url}/trpc/chat.completions.create?batch=1`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", [header]: "application/jsonl" },
      body: JSON.stringify({ 0: params() }),
    }).then((response) => response.text());
    await vi.waitFor(() => expect(fake.requests.length).toBe(sent + 1), { timeout: 5000 });
    await rateLimited(client.chat.completions.create(params()));
    expect(await streamed).toContain("Slow answer");
    expect((await client.chat.completions.create(params())).choices[0]!.message.content).toBe("Use CLUSTER [1].");
  });

  it("a HEAD, whose body is never sent, gives its slot back though it asked for a stream", async () => {
    const { server } = running;
    const auth = { authorization: `Bearer ${server.key}` };
    for (const accept of ["application/jsonl", "text/event-stream"]) {
      const head = await fetch(`${server.url}/v1/models`, { method: "HEAD", headers: { ...auth, accept } });
      expect(head.status).toBe(200);
      // The cap is 1: the next request is admitted only if the HEAD gave its slot back.
      await vi.waitFor(async () => expect((await fetch(`${server.url}/v1/models`, { headers: auth })).status).toBe(200), { timeout: 1000 });
    }
  });

  it("a slow non-streamed answer holds the slot until it is sent", async () => {
    const { client, fake } = running;
    fake.queue({ kind: "reply", text: "Slow answer [1].", delayMs: 300 });
    const sent = fake.requests.length;
    const slow = client.chat.completions.create(params());
    await vi.waitFor(() => expect(fake.requests.length).toBe(sent + 1), { timeout: 5000 });
    await rateLimited(client.chat.completions.create(params()));
    expect((await slow).choices[0]!.message.content).toBe("Slow answer [1].");
    expect((await client.chat.completions.create(params())).choices[0]!.message.content).toBe("Use CLUSTER [1].");
  });
});

describe("operations sent into a graphql-sse stream", () => {
  let running: ServerWithProviders;
  beforeAll(async () => {
    // The open stream holds one slot, as any request in progress does; its operations share the other.
    running = await startServerWithProviders({ kind: "reply", text: "Use CLUSTER [1]." }, { MAX_CONCURRENT_PER_KEY: "2" });
  });
  afterAll(() => running.close());

  it("hold a slot until they end, though each is answered 202 at once (sent by GET or POST)", async () => {
    const { fake, server } = running;
    const auth = { authorization: `Bearer ${server.key}` };
    const token = await (await fetch(`${server.url}/graphql/stream`, { method: "PUT", headers: auth })).text();
    const stream = await fetch(`${server.url}/graphql/stream`, { headers: { "x-graphql-event-stream-token": token, accept: "text/event-stream" } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let events = "";
    const reading = (async () => {
      for (let part = await reader.read(); !part.done; part = await reader.read()) events += new TextDecoder().decode(part.value);
    })().catch(() => {});
    const query = "subscription ($i: ChatCompletionInput!) { chatCompletionStream(input: $i) { id choices { delta { content } } } }";
    const send = (id: string) =>
      fetch(`${server.url}/graphql/stream`, {
        method: "POST",
        headers: { "x-graphql-event-stream-token": token, "content-type": "application/json" },
        body: JSON.stringify({
          query,
          variables: { i: { model: "provider_a", messages: [question], sources: [server.sources.pg] } },
          extensions: { operationId: id },
        }),
      });

    fake.queue({ kind: "reply", text: "Slow answer [1].", delayMs: 400 });
    const sent = fake.requests.length;
    // graphql-sse takes an operation by GET as well as by POST: op1 is sent by GET.
    const variables = JSON.stringify({ i: { model: "provider_a", messages: [question], sources: [server.sources.pg] } });
    const byGet = await fetch(
      `${server.url}/graphql/stream?${new URLSearchParams({ token, query, variables, extensions: JSON.stringify({ operationId: "op1" }) })}`,
    );
    expect(byGet.status).toBe(202);
    await vi.waitFor(() => expect(fake.requests.length).toBe(sent + 1), { timeout: 5000 });
    const second = await send("op2");
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("1");
    expect(fake.requests.length).toBe(sent + 1);

    await vi.waitFor(() => expect(events).toMatch(/event: complete\ndata: \{"id":"op1"\}/), { timeout: 5000 });
    await vi.waitFor(async () => expect((await send(`op3-${Date.now()}`)).status).toBe(202), { timeout: 2000 });
    await reader.cancel();
    await reading;
  });

  it.each(["DELETE", "PUT", "HEAD"])(
    "are not opened by %s asking for events: only GET opens the stream (a DELETE took no slot and outlived its key)",
    async (method) => {
      const { server } = running;
      const token = await vi.waitFor(async () => {
        const reserved = await fetch(`${server.url}/graphql/stream`, { method: "PUT", headers: { authorization: `Bearer ${server.key}` } });
        expect(reserved.status).toBe(201);
        return reserved.text();
      });
      const opened = await fetch(`${server.url}/graphql/stream?token=${encodeURIComponent(token)}`, { method, headers: { accept: "text/event-stream" } });
      expect(opened.status).toBe(405);
      expect(opened.headers.get("allow")).toBe("GET, POST");
      // The reservation is still there for a GET to open.
      const stream = await fetch(`${server.url}/graphql/stream`, { headers: { "x-graphql-event-stream-token": token, accept: "text/event-stream" } });
      expect(stream.status).toBe(200);
      await stream.body!.cancel();
    },
  );

  it.each(["cancelled (DELETE) by a key at its cap", "ended by closing its stream"])("stop at once when %s, freeing the slot", async (how) => {
    const { fake, server } = running;
    const auth = { authorization: `Bearer ${server.key}` };
    const openStream = async () => {
      const reserved = await fetch(`${server.url}/graphql/stream`, { method: "PUT", headers: auth });
      const token = await reserved.text();
      const stream = await fetch(`${server.url}/graphql/stream`, { headers: { "x-graphql-event-stream-token": token, accept: "text/event-stream" } });
      if (reserved.status !== 201 || stream.status !== 200) throw new Error(`no stream: ${reserved.status}, ${stream.status}`);
      const reader = stream.body!.getReader();
      const reading = (async () => {
        for (let part = await reader.read(); !part.done; part = await reader.read());
      })().catch(() => {});
      const headers = { "x-graphql-event-stream-token": token };
      const send = (id: string) =>
        fetch(`${server.url}/graphql/stream`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({
            query: "subscription ($i: ChatCompletionInput!) { chatCompletionStream(input: $i) { id } }",
            variables: { i: { model: "provider_a", messages: [question], sources: [server.sources.pg] } },
            extensions: { operationId: id },
          }),
        });
      return { headers, send, close: () => reader.cancel().then(() => reading) };
    };
    // The previous test's stream may still be closing: wait for the key's slots.
    const stream = await vi.waitFor(openStream, { timeout: 2000 });
    fake.queue({ kind: "reply", text: "A very slow answer [1].", delayMs: 5000 });
    const sent = fake.requests.length;
    expect((await stream.send("slow")).status).toBe(202);
    await vi.waitFor(() => expect(fake.requests.length).toBe(sent + 1), { timeout: 5000 });
    // The stream and the slow answer hold both slots: the key is at its cap.
    if (how.startsWith("cancelled")) {
      const cancelled = await fetch(`${server.url}/graphql/stream?operationId=slow`, { method: "DELETE", headers: stream.headers });
      expect(cancelled.status).toBe(200);
    } else {
      await stream.close();
    }
    // The provider call is cut well before its answer would come, and the slot is free for the next operation.
    await vi.waitFor(() => expect(fake.requests[sent]!.abortedAt).toBeDefined(), { timeout: 2000 });
    const next = how.startsWith("cancelled") ? stream : await vi.waitFor(openStream, { timeout: 2000 });
    await vi.waitFor(async () => expect((await next.send(`next-${Date.now()}`)).status).toBe(202), { timeout: 2000 });
    await next.close();
  });
});
