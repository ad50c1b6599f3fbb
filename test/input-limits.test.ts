import http from "node:http";
import { gzipSync } from "node:zlib";
import { TRPCClientError } from "@trpc/client";
import { getIntrospectionQuery } from "graphql";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlRequest, trpcClient } from "./support/clients.ts";
import type { FakeProviderServer } from "./support/fake-provider-server.ts";
import { type ServerWithProviders, startServerWithProviders, startTestServer, type TestServer } from "./support/test-server.ts";

const QUESTION = "How do I physically reorder a table according to an index?";
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

/** Input limits: refused with 400 naming the parameter, before retrieval or any provider call, on every interface. */
describe("input limits", () => {
  let running: ServerWithProviders;
  let server: TestServer;
  let fake: FakeProviderServer;
  let client: OpenAI;
  beforeAll(async () => {
    running = await startServerWithProviders({ kind: "reply", text: "An answer [1]." }, { AGENT_MODEL: "extractive" });
    ({ server, fake, client } = running);
  });
  afterAll(() => running.close());

  const post = (body: unknown) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  /** The OpenAI SDK's error for a request, with the fields OpenAI's error shape carries. */
  const refusal = async (body: object) => {
    const error = await client.chat.completions.create(body as never).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    return { status: error.status, param: error.param, code: error.code, type: error.type, message: error.message as string };
  };

  it("refuses a message longer than MAX_MESSAGE_CHARS (100,000) before calling the provider", async () => {
    const before = fake.requests.length;
    const log = "ERROR: deadlock detected\n".repeat(4200);
    const error = await refusal({
      model: "provider_a",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: `${log}\n${QUESTION}` },
      ],
    });
    expect(error).toMatchObject({ status: 400, param: "messages[1].content", code: "string_above_max_length", type: "invalid_request_error" });
    expect(error.message).toMatch(/100,000/);
    // An earlier reply's refusal sent back counts as that message's text, as a field or as a part.
    for (const declined of [
      { role: "assistant", content: null, refusal: "no ".repeat(40_000) },
      { role: "assistant", content: [{ type: "refusal", refusal: "no ".repeat(40_000) }] },
    ]) {
      const long = await refusal({ model: "provider_a", messages: [{ role: "user", content: "Hi?" }, declined, { role: "user", content: QUESTION }] });
      expect(long).toMatchObject({ status: 400, param: "messages[1].content", code: "string_above_max_length" });
    }
    expect(fake.requests.length).toBe(before);
  });

  it("answers a question with a long pasted log well under the limits", async () => {
    const log = '2026-11-22 10:00:01 ERROR: could not create unique index "idx" DETAIL: Key (id)=(1) is duplicated.\n'.repeat(400);
    const completion = await client.chat.completions.create({
      model: "agent",
      messages: [{ role: "user", content: `${QUESTION}\n${log}` }],
      sources: [server.sources.pg],
    } as never);
    expect(completion.choices[0]!.message.content).toBeTruthy();
  });

  it("refuses more than MAX_MESSAGES (1,000) messages, and more than MAX_INPUT_CHARS (400,000) in all", async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: QUESTION }));
    expect(await refusal({ model: "agent", messages: many })).toMatchObject({ status: 400, param: "messages", code: "array_above_max_length" });

    const long = Array.from({ length: 5 }, () => ({ role: "user", content: "index ".repeat(15_000) }));
    expect(await refusal({ model: "agent", messages: long })).toMatchObject({ status: 400, param: "messages", code: "context_length_exceeded" });
  });

  it("refuses more than 256 sources", async () => {
    const error = await refusal({ model: "agent", messages: [{ role: "user", content: QUESTION }], sources: Array.from({ length: 257 }, (_, i) => uuid(i)) });
    expect(error).toMatchObject({ status: 400, param: "sources", code: "array_above_max_length" });
    expect(error.message).toMatch(/at most 256/);
  });

  it("bounds every other string, array and record of the request", async () => {
    const ask = { model: "agent", messages: [{ role: "user", content: QUESTION }] };
    const cases: Array<[object, string]> = [
      [{ ...ask, model: "m".repeat(300) }, "model"],
      [{ ...ask, messages: [{ role: "user", content: QUESTION, name: "n".repeat(300) }] }, "messages[0].name"],
      [{ ...ask, messages: [{ role: "user", content: Array.from({ length: 257 }, () => ({ type: "text", text: "index " })) }] }, "messages[0].content"],
      [{ ...ask, stop: ["s".repeat(300)] }, "stop[0]"],
      [{ ...ask, user: "u".repeat(300) }, "user"],
      [{ ...ask, metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])) }, "metadata"],
      [{ ...ask, metadata: { k: "v".repeat(513) } }, "metadata.k"],
      [
        { ...ask, response_format: { type: "json_schema", json_schema: { name: "x", description: "d".repeat(5000), schema: { type: "object" } } } },
        "response_format.json_schema.description",
      ],
    ];
    for (const [body, param] of cases) {
      const response = await post(body);
      expect(response.status, param).toBe(400);
      expect(((await response.json()) as any).error, param).toMatchObject({
        type: "invalid_request_error",
        param,
        code: expect.stringMatching(/^(string|array)_above_max_length$|^invalid_value$/),
      });
    }
  });

  it("refuses a body nested too deep or holding too many values before parsing it", async () => {
    const deep = `{"model":"agent","messages":[{"role":"user","content":"x"}],"metadata":${"[".repeat(100)}${"]".repeat(100)}}`;
    const response = await post(deep);
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toMatchObject({ code: "json_too_deep", param: null, type: "invalid_request_error" });

    const wide = JSON.stringify({ model: "agent", messages: [{ role: "user", content: "x" }], extra: Array.from({ length: 60_000 }, () => 1) });
    const tooMany = await post(wide);
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as any).error).toMatchObject({ code: "json_too_large" });
  });

  it("refuses a compressed body with 415 on every interface, in its own error shape, and reads an identity one", async () => {
    const body = new Blob([gzipSync(JSON.stringify({ model: "agent", messages: [{ role: "user", content: QUESTION }] }))]);
    const send = (path: string, encoding: string, payload: Blob | string = body) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${server.key}`,
          "content-type": "application/json",
          "content-encoding": encoding,
          accept: "application/json, text/event-stream",
        },
        body: payload,
      });
    const rest = await send("/v1/chat/completions", "gzip");
    expect(rest.status).toBe(415);
    expect(((await rest.json()) as any).error).toMatchObject({ code: "unsupported_content_encoding", type: "invalid_request_error", param: null });
    const responses = await send("/v1/responses", "br");
    expect(responses.status).toBe(415);
    expect(((await responses.json()) as any).error.message).toMatch(/Content-Encoding br; send it uncompressed/);
    const graphql = await send("/graphql", "gzip");
    expect(graphql.status).toBe(415);
    expect(((await graphql.json()) as any).errors[0].extensions).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", reason: "unsupported_content_encoding" });
    const trpc = await send("/trpc/chat.completions.create", "deflate");
    expect(trpc.status).toBe(415);
    expect(((await trpc.json()) as any).error.data).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", httpStatus: 415 });
    const mcp = await send("/mcp", "gzip");
    expect(mcp.status).toBe(415);
    expect(((await mcp.json()) as any).error.data).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
    expect(mcp.headers.get("accept-encoding")).toBe("identity");
    // `identity` is no coding: the body is read as sent.
    const json = JSON.stringify({ model: "agent", messages: [{ role: "user", content: QUESTION }] });
    expect((await send("/v1/chat/completions", "identity", json)).status).toBe(200);
    expect((await send("/v1/chat/completions", "identity, IDENTITY", json)).status).toBe(200);
    // A request with no body has no coding, whatever its headers say.
    const empty = await fetch(`${server.url}/mcp`, { method: "DELETE", headers: { authorization: `Bearer ${server.key}`, "content-encoding": "gzip" } });
    expect(empty.status).toBe(405);
  });

  it("reads a refused compressed body to its end, so the client's next request reuses the connection", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (headers: Record<string, string>, chunks: Buffer[]) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const request = http.request(
          `${server.url}/v1/chat/completions`,
          { method: "POST", agent, headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", ...headers } },
          (response) => {
            response.resume();
            response.on("end", () => resolve({ status: response.statusCode!, reused: request.reusedSocket }));
          },
        );
        request.on("error", reject);
        // Written in pieces (chunked), as a streaming client sends: the refusal may come before the last piece.
        (async () => {
          for (const chunk of chunks) {
            request.write(chunk);
            await new Promise((r) => setTimeout(r, 5));
          }
          request.end();
        })();
      });
    try {
      expect((await send({}, [Buffer.from(JSON.stringify({ model: "agent", messages: [{ role: "user", content: QUESTION }] }))])).status).toBe(200);
      const refused = await send(
        { "content-encoding": "gzip" },
        Array.from({ length: 30 }, () => Buffer.alloc(100_000, 0x61)),
      );
      expect(refused).toEqual({ status: 415, reused: true });
      const next = await send({}, [Buffer.from(JSON.stringify({ model: "agent", messages: [{ role: "user", content: QUESTION }] }))]);
      expect(next).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it("applies the same limits over GraphQL and tRPC", async () => {
    const content = "x".repeat(100_001);
    const create = `mutation ($input: ChatCompletionInput!) { createChatCompletion(input: $input) { id } }`;
    const graphql = await graphqlRequest(server.url, server.key, create, { input: { model: "agent", messages: [{ role: "user", content }] } });
    expect(graphql.body.errors![0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT", param: "messages[0].content" } });

    const trpc = await trpcClient(server.url, server.key)
      .chat.completions.create.mutate({ model: "agent", messages: [{ role: "user", content }] })
      .catch((e) => e);
    expect(trpc).toBeInstanceOf(TRPCClientError);
    expect(trpc.data).toMatchObject({ code: "BAD_REQUEST", param: "messages[0].content" });

    const sources = Array.from({ length: 257 }, (_, i) => uuid(i));
    const viaTrpc = await trpcClient(server.url, server.key)
      .chat.completions.create.mutate({ model: "agent", messages: [{ role: "user", content: QUESTION }], sources })
      .catch((e) => e);
    expect(viaTrpc.data).toMatchObject({ code: "BAD_REQUEST", param: "sources" });
  });

  it("refuses an oversized or too deeply nested tRPC body in tRPC's own error shape", async () => {
    const client = trpcClient(server.url, server.key);
    const big = await client.chat.completions.create
      .mutate({ model: "agent", messages: [{ role: "user", content: QUESTION }], metadata: { pad: "x".repeat(4.5 * 1024 * 1024) } } as any)
      .catch((e) => e);
    expect(big).toBeInstanceOf(TRPCClientError);
    expect(big.data).toMatchObject({ code: "PAYLOAD_TOO_LARGE", httpStatus: 413, reason: "request_too_large" });

    const deep = JSON.parse(`${"[".repeat(100)}${"]".repeat(100)}`);
    const nested = await client.chat.completions.create
      .mutate({ model: "agent", messages: [{ role: "user", content: QUESTION }], metadata: { deep } } as any)
      .catch((e) => e);
    expect(nested).toBeInstanceOf(TRPCClientError);
    expect(nested.data).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, reason: "json_too_deep" });
  });

  it("answers a keyless GraphQL or tRPC request before reading its body", async () => {
    // 4 MB declared, a few bytes sent and the rest never: the 401 must come without waiting for (or parsing) the rest.
    const firstBytes = (path: string, key: string | null) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(`${server.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "content-length": 4_000_000, ...(key && { authorization: `Bearer ${key}` }) },
        });
        request.on("response", (response) => {
          let body = "";
          response.on("data", (chunk) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, body }));
        });
        request.on("error", reject);
        request.write('{"query": "');
        setTimeout(() => request.destroy(new Error(`no answer from ${path} before the body ended`)), 3000);
      });
    const graphql = await firstBytes("/graphql", null);
    expect(graphql.status).toBe(401);
    expect(JSON.parse(graphql.body).errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect((await firstBytes("/graphql", "dk_wrong")).status).toBe(401);
    const trpc = await firstBytes("/trpc/chat.completions.create", null);
    expect(trpc.status).toBe(401);
    expect(JSON.parse(trpc.body).error.data.code).toBe("UNAUTHORIZED");
  });

  it("does not let one GraphQL or tRPC request multiply the work: aliases and batches are bounded", async () => {
    const aliases = Array.from({ length: 5 }, (_, i) => `a${i}: createChatCompletion(input: $input) { id }`).join(" ");
    const graphql = await graphqlRequest(server.url, server.key, `mutation ($input: ChatCompletionInput!) { ${aliases} }`, {
      input: { model: "agent", messages: [{ role: "user", content: QUESTION }] },
    });
    expect(graphql.body.errors![0]).toMatchObject({ message: expect.stringMatching(/at most 1 chat completion/) });
    expect(graphql.body.data).toBeUndefined();
    const huge = await graphqlRequest(server.url, server.key, `{ models { ${"id ".repeat(6000)} } }`);
    expect(huge.body.errors![0]!.message).toMatch(/5000 tokens/);

    // Aliases spread through fragments multiply: 20 of `fields` in two fragments spread into each other
    // made 4.6 KB of introspection answer 413 MB in 118 s. Counted with fragments expanded, refused before running.
    const sel = (next: string) => `type{${next} ofType{${next} ofType{${next}}}}`;
    const fragment = (name: string, next: string) =>
      `fragment ${name} on __Type{${Array.from({ length: 20 }, (_, j) => `f${j}:fields{${sel(next)}}`).join(" ")}}`;
    const started = performance.now();
    const bomb = await graphqlRequest(server.url, server.key, `{ s0: __schema { types { ...T0 } } } ${fragment("T0", "...T1")} ${fragment("T1", "name")}`);
    expect(bomb.body.errors![0]!.message).toMatch(/Aliases limit of 30 exceeded|more than 2000 fields once its fragments are expanded/);
    expect(bomb.body.data).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
    const fewAliases = Array.from({ length: 30 }, (_, i) => `m${i}: models { id }`).join(" ");
    expect((await graphqlRequest(server.url, server.key, `{ ${fewAliases} }`)).body.errors).toBeUndefined();
    const tooMany = await graphqlRequest(server.url, server.key, `{ ${fewAliases} m30: models { id } }`);
    expect(tooMany.body.errors![0]!.message).toMatch(/Aliases limit of 30 exceeded, found 31/);
    const introspection = await graphqlRequest(server.url, server.key, getIntrospectionQuery());
    expect(introspection.body.errors).toBeUndefined();

    // A field repeated under one name is compared pairwise in validation (400 repeats: 0.2–0.5 s), and a chain of
    // fragments that each spread the next twice doubles at each link: both refused before validation.
    const repeats = await graphqlRequest(server.url, server.key, `{ ${"sources { id } ".repeat(400)} }`);
    expect(repeats.body.errors![0]!.message).toMatch(/'sources' is asked for more than 5 times in one selection set/);
    const chain = Array.from({ length: 300 }, (_, i) => `fragment F${i} on Query { ${i === 299 ? "models { id }" : `...F${i + 1} ...F${i + 1}`} }`);
    const doubling = await graphqlRequest(server.url, server.key, `{ ...F0 } ${chain.join(" ")}`);
    expect(doubling.body.errors![0]!.message).toMatch(/more than 2000 fields once its fragments are expanded|'models' is asked for more than 32 times/);
    // Fields that many fragments add under one name are compared pairwise too: 370 fragments each asking
    // `sources { id }`, spread side by side, cost 0.15–0.35 s each to validate. Relay-style overlap (a few) passes.
    const overlap = (n: number) => {
      const names = Array.from({ length: n }, (_, i) => `O${i}`);
      return `{ ${names.map((name) => `...${name}`).join(" ")} } ${names.map((name) => `fragment ${name} on Query { sources { id } }`).join(" ")}`;
    };
    const overlapStarted = performance.now();
    const overlapping = await graphqlRequest(server.url, server.key, overlap(370));
    expect(overlapping.body.errors![0]!.message).toMatch(/'sources' is asked for more than 32 times in one selection set once its fragments are expanded/);
    expect(performance.now() - overlapStarted).toBeLessThan(100);
    const inline = `{ ${Array.from({ length: 40 }, () => "... on Query { models { id } }").join(" ")} }`;
    expect((await graphqlRequest(server.url, server.key, inline)).body.errors![0]!.message).toMatch(/'models' is asked for more than 32 times/);
    expect((await graphqlRequest(server.url, server.key, overlap(30))).body.errors).toBeUndefined();
    // Merged at depth, sub-selections are compared together: 8 copies at each of three levels cost 8×8×8 (0.27–0.63 s).
    const eight = (inner: string) => Array.from({ length: 8 }, () => `... on __Type { ${inner} }`).join(" ");
    const nested = `{ __schema { types { ${eight(`fields { ${Array.from({ length: 8 }, () => "... on __Field { type { name } }").join(" ")} }`)} } } }`;
    expect((await graphqlRequest(server.url, server.key, nested)).body.errors![0]!.message).toMatch(/'type' is asked for more than 32 times/);

    // graphql-js parses recursively: 2,400 nested lists within the token limit overflowed its stack (a 500 with a stack in the log).
    const deep = await graphqlRequest(server.url, server.key, `{ source(id: ${"[".repeat(2400)}"x"${"]".repeat(2400)}) { id } }`);
    expect(deep.body.errors![0]).toMatchObject({ message: "The document nests more than 64 levels deep.", extensions: { code: "BAD_USER_INPUT" } });
    // Sent into a graphql-sse stream, where the plugin parses with nothing to catch a refusal: 400, not a 500.
    const token = await (await fetch(`${server.url}/graphql/stream`, { method: "PUT", headers: { authorization: `Bearer ${server.key}` } })).text();
    const open = new AbortController();
    const stream = await fetch(`${server.url}/graphql/stream?token=${token}`, { headers: { accept: "text/event-stream" }, signal: open.signal });
    expect(stream.status).toBe(200);
    for (const query of [`{ source(id: ${"[".repeat(100)}"x"${"]".repeat(100)}) { id } }`, "{ sources { "]) {
      const intoStream = await fetch(`${server.url}/graphql/stream`, {
        method: "POST",
        headers: { "x-graphql-event-stream-token": token, "content-type": "application/json" },
        body: JSON.stringify({ query, extensions: { operationId: query.slice(0, 12) } }),
      });
      expect(intoStream.status).toBe(400);
      expect((await intoStream.json()).errors[0].message).toMatch(/nests more than 64 levels|Syntax Error/);
    }
    open.abort();
    const deepDefault = await graphqlRequest(server.url, server.key, `query ($v: String = ${"{a:".repeat(1500)}1${"}".repeat(1500)}) { models { id } }`);
    expect(deepDefault.body.errors![0]!.message).toBe("The document nests more than 64 levels deep.");

    const full = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    expect((await graphqlRequest(server.url, server.key, full)).body.errors).toBeUndefined();

    const batch = Array.from({ length: 17 }, () => "models.list").join(",");
    const input = encodeURIComponent(JSON.stringify({}));
    const trpc = await fetch(`${server.url}/trpc/${batch}?batch=1&input=${input}`, { headers: { authorization: `Bearer ${server.key}` } });
    expect(trpc.status).toBe(400);
    // tRPC's adapter labels this refusal text/plain; its body is tRPC's JSON error shape, and so is its label.
    expect(trpc.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await trpc.json()).error.message).toMatch(/Batch call exceeds maximum size/);
    const textPlain = await fetch(`${server.url}/trpc/chat.completions.create`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "text/plain" },
      body: "{}",
    });
    expect(textPlain.status).toBe(415);
    expect(textPlain.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await textPlain.json()).error.data.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const ok = await fetch(`${server.url}/trpc/${batch.split(",").slice(0, 16).join(",")}?batch=1&input=${input}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(ok.status).toBe(200);
  });
});

describe("input limits from the environment", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ MAX_MESSAGES: "3", MAX_MESSAGE_CHARS: "200", MAX_INPUT_CHARS: "300" });
  });
  afterAll(() => server.close());

  const status = async (messages: Array<{ role: string; content: string }>) => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages }),
    });
    const body = (await response.json()) as any;
    return { status: response.status, param: body.error?.param, code: body.error?.code };
  };

  it("honours MAX_MESSAGES, MAX_MESSAGE_CHARS and MAX_INPUT_CHARS", async () => {
    const user = (content: string) => ({ role: "user", content });
    expect((await status([user(QUESTION)])).status).toBe(200);
    expect(await status([user("a"), user("b"), user("c"), user(QUESTION)])).toMatchObject({ status: 400, param: "messages", code: "array_above_max_length" });
    expect(await status([user("x".repeat(201))])).toMatchObject({ status: 400, param: "messages[0].content", code: "string_above_max_length" });
    expect(await status([user("x".repeat(150)), user("x".repeat(151))])).toMatchObject({ status: 400, param: "messages", code: "context_length_exceeded" });
  });
});
