import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/** Raw HTTP: SSE framing, error shapes and statuses, authentication. */
describe("REST over raw HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ MAX_BODY_BYTES: "2048" });
  });
  afterAll(() => server.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const question = { model: "agent", messages: [{ role: "user", content: "How do I physically reorder a table according to an index?" }] };

  const expectError = async (response: Response, status: number, match: Record<string, unknown>) => {
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await response.json()) as { error: Record<string, string> & { message: string } };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(Object.keys(body.error).sort()).toEqual(["code", "message", "param", "type"]);
    expect(body.error).toMatchObject(match);
    expect(body.error.message.length).toBeGreaterThan(10);
    return body.error;
  };

  it("frames a stream as data: events ending with data: [DONE]", async () => {
    const response = await post({ ...question, stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const frames = text.split("\n\n").filter(Boolean);
    expect(frames.at(-1)).toBe("data: [DONE]");
    for (const frame of frames.slice(0, -1)) {
      expect(frame.startsWith("data: ")).toBe(true);
      const chunk = JSON.parse(frame.slice(6));
      expect(chunk).toMatchObject({ object: "chat.completion.chunk", service_tier: null, usage: null });
      expect(Object.keys(chunk.choices[0].delta).sort()).toEqual(expect.arrayContaining(["content", "function_call", "refusal", "role", "tool_calls"]));
      expect(Array.isArray(chunk.url_references)).toBe(true);
    }
    expect(JSON.parse(frames.at(-2)!.slice(6)).choices[0].finish_reason).toBe("stop");
  });

  it("is not streamed when stream is absent, and says which model answered", async () => {
    const response = await post(question);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(response.headers.get("x-docent-model")).toBe("extractive/docent-extractive-1");
    expect(((await response.json()) as any).object).toBe("chat.completion");
  });

  it("rejects malformed JSON with 400", async () => {
    await expectError(await post("{not json"), 400, { type: "invalid_request_error", code: "invalid_json" });
  });

  it("rejects unsupported roles naming the parameter", async () => {
    const error = await expectError(
      await post({
        model: "agent",
        messages: [
          { role: "user", content: "a" },
          { role: "tool", content: "b" },
        ],
      }),
      400,
      { param: "messages[1].role" },
    );
    expect(error.message).toMatch(/tool/);
  });

  it("rejects source ids that are not UUIDs with 400 and unknown ones with 404", async () => {
    await expectError(await post({ ...question, sources: ["pg"] }), 400, { param: "sources[0]" });
    const error = await expectError(await post({ ...question, sources: [server.sources.pg, "00000000-0000-4000-8000-000000000000"] }), 404, {
      param: "sources[1]",
      code: "source_not_found",
    });
    expect(error.message).toContain("00000000-0000-4000-8000-000000000000");
  });

  it("refuses a misspelt sources or include_references (read as absent, the agent would answer from any source), and ignores other unknown fields", async () => {
    for (const [field, meant] of [
      ["source", "sources"],
      ["knowledge_sources", "sources"],
      ["sourceIds", "sources"],
      ["includeReferences", "include_references"],
      ["include_reference", "include_references"],
    ] as const) {
      const error = await expectError(await post({ ...question, [field]: [server.sources.pg] }), 400, { param: field, code: "unknown_parameter" });
      expect(error.message).toContain(`did you mean '${meant}'`);
    }
    // Through the Responses API too.
    const responses = await fetch(`${server.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", input: "How do I physically reorder a table?", source: [server.sources.pg] }),
    });
    await expectError(responses, 400, { param: "source", code: "unknown_parameter" });
    // Other servers' extras are not docent's to refuse.
    const extras = await post({ ...question, top_k: 5, repetition_penalty: 1.1, chat_template_kwargs: {} });
    expect(extras.status).toBe(200);
  });

  it("rejects an unknown model with 404", async () => {
    await expectError(await post({ ...question, model: "gpt-4o" }), 404, { param: "model", code: "model_not_found" });
  });

  it("rejects a body over MAX_BODY_BYTES with 413", async () => {
    await expectError(await post({ ...question, pad: "x".repeat(4096) }), 413, { code: "request_too_large" });
  });

  it("reads a chunked body (no content-length) counting its bytes: answered within MAX_BODY_BYTES, 413 over it", async () => {
    // A body of several chunks, sent with transfer-encoding: chunked, so no length is declared up front.
    const chunked = (text: string) =>
      fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            for (let at = 0; at < text.length; at += 500) controller.enqueue(new TextEncoder().encode(text.slice(at, at + 500)));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
    const within = await chunked(JSON.stringify({ ...question, pad: "x".repeat(1200) }));
    expect(within.status).toBe(200);
    expect(((await within.json()) as { object: string }).object).toBe("chat.completion");
    await expectError(await chunked(JSON.stringify({ ...question, pad: "x".repeat(4096) })), 413, { code: "request_too_large" });
    await expectError(await chunked("{not json"), 400, { code: "invalid_json" });
  });

  it("requires a valid, unrevoked key on every /v1 route", async () => {
    for (const path of ["/v1/models", "/v1/sources"]) {
      await expectError(await fetch(`${server.url}${path}`), 401, { code: "missing_api_key", type: "invalid_request_error" });
    }
    await expectError(await post(question, { authorization: "Bearer dk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }), 401, { code: "invalid_api_key" });
    await expectError(await post(question, { authorization: "Basic abc" }), 401, { code: "missing_api_key" });
    // A key with something after it was sent, just not alone: not "missing".
    const malformed = await post(question, { authorization: `Bearer ${server.key} junk` });
    expect(malformed.status).toBe(401);
    expect((await malformed.json()).error).toMatchObject({ code: "invalid_api_key", message: expect.stringMatching(/^Malformed Authorization header/) });
    const extra = await server.services.keys.create("to-revoke");
    expect((await post(question, { authorization: `Bearer ${extra.key}` })).status).toBe(200);
    await server.services.keys.revoke(extra.id);
    await expectError(await post(question, { authorization: `Bearer ${extra.key}` }), 401, { code: "invalid_api_key" });
  });

  it("refuses a key with 401 once it has expired", async () => {
    const brief = await server.services.keys.create("brief", { expiresAt: new Date(Date.now() + 600) });
    expect((await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${brief.key}` } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const error = await expectError(await post(question, { authorization: `Bearer ${brief.key}` }), 401, { code: "invalid_api_key" });
    expect(error.message).toMatch(/expired/);
  });

  it("answers /healthz without a key, and unknown routes with a 404 error", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    await expectError(await fetch(`${server.url}/v1/nothing`, { headers: { authorization: `Bearer ${server.key}` } }), 404, {});
  });

  it("answers a known route asked with another method 405, naming the methods it takes in Allow", async () => {
    const auth = { authorization: `Bearer ${server.key}` };
    const cases: Array<[string, string, string]> = [
      ["GET", "/v1/chat/completions", "POST"],
      ["GET", "/v1/responses", "POST"],
      ["DELETE", `/v1/sources/${server.sources.pg}`, "GET, HEAD"],
      ["POST", "/v1/models", "GET, HEAD"],
      ["PUT", "/healthz", "GET, HEAD"],
    ];
    for (const [method, path, allow] of cases) {
      const response = await fetch(`${server.url}${path}`, { method, headers: auth });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("allow")).toBe(allow);
      expect((await response.json()).error).toMatchObject({ type: "invalid_request_error", code: "method_not_allowed", param: null });
    }
    // GraphQL and tRPC answer in their own error shapes.
    const graphql = await fetch(`${server.url}/graphql`, { method: "PATCH", headers: auth });
    expect(graphql.status).toBe(405);
    expect(graphql.headers.get("allow")).toBe("GET, POST, PUT, DELETE, HEAD");
    expect((await graphql.json()).errors[0].extensions).toMatchObject({ code: "METHOD_NOT_ALLOWED" });
    const trpc = await fetch(`${server.url}/trpc/models.list`, { method: "PATCH", headers: auth });
    expect(trpc.status).toBe(405);
    expect(trpc.headers.get("allow")).toBe("GET, POST, HEAD");
    expect((await trpc.json()).error).toMatchObject({ data: { code: "METHOD_NOT_SUPPORTED", httpStatus: 405 } });
    // A batch past what the adapter takes gets one shape, its path cut short: not one per call, each naming the whole path.
    const huge = await fetch(`${server.url}/trpc/${Array(1200).fill("models.list").join(",")}?batch=1`, { method: "PUT", headers: auth });
    expect(huge.status).toBe(405);
    expect((await huge.text()).length).toBeLessThan(2_000);
    // Without a key, refused as tRPC's clients read it (the adapter would answer a PUT 415).
    const keyless = await fetch(`${server.url}/trpc/models.list`, { method: "PUT" });
    expect(keyless.status).toBe(401);
    expect((await keyless.json()).error).toMatchObject({ data: { code: "UNAUTHORIZED", httpStatus: 401 } });
    // Asked for an event stream (a subscription's) or a streamed batch, the answer is still a 405, not a 200 stream.
    for (const [path, headers] of [
      ["chat.completions.stream?input={}", { accept: "text/event-stream" }],
      ["models.list?batch=1&input={}", { "trpc-accept": "application/jsonl" }],
    ] as const) {
      const streamed = await fetch(`${server.url}/trpc/${path}`, { method: "PUT", headers: { ...auth, ...headers } });
      expect(streamed.status).toBe(405);
      expect(streamed.headers.get("content-type")).toMatch(/^application\/json/);
      expect(JSON.stringify(await streamed.json())).toContain("METHOD_NOT_SUPPORTED");
    }
    // An unknown path is still unknown, whatever the method.
    await expectError(await fetch(`${server.url}/v1/nothing`, { method: "POST", headers: auth }), 404, { code: "unknown_url" });
  });
});
