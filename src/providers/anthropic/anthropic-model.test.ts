import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviderServer, startFakeProviderServer } from "../../../test/support/fake-provider-server.ts";
import { DocentError } from "../../core/errors.ts";
import { contractCall, drain, languageModelContract } from "../../core/language-model.contract.ts";
import { createAnthropicModel } from "./anthropic-model.ts";

const label = { name: "provider_b", provider: "anthropic", modelId: "claude-test", keyVariable: "ANTHROPIC_API_KEY", modelVariable: "PROVIDER_B_MODEL" };
const modelFor = (server: FakeProviderServer) =>
  createAnthropicModel({ client: new Anthropic({ apiKey: "sk-ant-test", baseURL: server.anthropicBaseUrl, maxRetries: 0 }), label });

languageModelContract("anthropic (real SDK, local wire-protocol server)", async () => {
  const server = await startFakeProviderServer({ kind: "reply", text: "Use CREATE INDEX with a WHERE clause [1]." });
  return { model: modelFor(server), cleanup: server.close };
});

describe("anthropic model over the wire", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeProviderServer();
  });
  afterAll(() => server.close());

  it("sends system apart, alternating turns, max_tokens, and reads usage from the events", async () => {
    server.queue({ kind: "reply", text: "Hello there.", usage: { input: 90, output: 6, cached: 30 }, finish: "max_tokens" });
    const call = contractCall({ temperature: 1.5, maxOutputTokens: 64 });
    call.prompt.push({ role: "user", content: "And a second user turn." });
    const parts = await drain((await modelFor(server).doStream(call)).stream);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v1/messages");
    // SDK 1.x sends the key as a bearer token; older ones used x-api-key.
    expect([sent.headers["x-api-key"], sent.headers.authorization]).toContain(sent.headers["x-api-key"] ? "sk-ant-test" : "Bearer sk-ant-test");
    expect(sent.headers["anthropic-version"]).toBeDefined();
    expect(sent.body).toMatchObject({ model: "claude-test", stream: true, max_tokens: 64, temperature: 1 });
    expect(sent.body.system).toContain("Answer from the excerpts");
    expect(sent.body.messages).toEqual([{ role: "user", content: "How do I create a partial index?\n\nAnd a second user turn." }]);
    // The prompt is the uncached input and the cache's reads together, as OpenAI counts it.
    expect(parts.at(-1)).toEqual({ type: "finish", finishReason: "length", usage: { promptTokens: 120, completionTokens: 6, cachedTokens: 30 } });
  });

  it.each([
    [401, "BAD_GATEWAY", /ANTHROPIC_API_KEY/],
    [400, "BAD_REQUEST", /rejected the request/],
    [529, "SERVICE_UNAVAILABLE", /overloaded/],
    [500, "BAD_GATEWAY", /HTTP 500/],
  ])("maps HTTP %i to %s", async (status, code, message) => {
    server.queue({ kind: "status", status });
    const error = await modelFor(server)
      .doStream(contractCall())
      .catch((e) => e);
    expect(error).toBeInstanceOf(DocentError);
    expect(error).toMatchObject({ code });
    expect(error.message).toMatch(message);
  });

  it("reports a stream cut mid-way: no finish part", async () => {
    server.queue({ kind: "cut", text: "one two three four five", cutAfter: 2 });
    const parts = await drain((await modelFor(server).doStream(contractCall())).stream);
    expect(parts.some((p) => p.type === "text-delta")).toBe(true);
    expect(parts.some((p) => p.type === "finish")).toBe(false);
  });

  it("turns an in-stream error event into an error part", async () => {
    server.queue({ kind: "stream-error", text: "partial answer", message: "Overloaded right now" });
    const parts = await drain((await modelFor(server).doStream(contractCall())).stream);
    const error = parts.find((p) => p.type === "error") as { error: DocentError } | undefined;
    expect(error?.error.message).toMatch(/Overloaded right now|overloaded/i);
  });
});
