import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviderServer, startFakeProviderServer } from "../../../test/support/fake-provider-server.ts";
import { DocentError } from "../../core/errors.ts";
import { contractCall, drain, languageModelContract } from "../../core/language-model.contract.ts";
import { createOpenAIModel } from "./openai-model.ts";

const label = { name: "provider_a", provider: "openai", modelId: "gpt-test", keyVariable: "OPENAI_API_KEY", modelVariable: "PROVIDER_A_MODEL" };
const modelFor = (server: FakeProviderServer) =>
  createOpenAIModel({
    client: new OpenAI({ apiKey: "sk-test", baseURL: server.openaiBaseUrl, maxRetries: 0 }),
    label,
    maxTokensField: "max_completion_tokens",
  });

languageModelContract("openai (real SDK, local wire-protocol server)", async () => {
  const server = await startFakeProviderServer({ kind: "reply", text: "Use CREATE INDEX with a WHERE clause [1]." });
  return { model: modelFor(server), cleanup: server.close };
});

describe("openai model over the wire", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeProviderServer();
  });
  afterAll(() => server.close());

  it("sends the prompt, options and include_usage the way OpenAI expects", async () => {
    server.queue({ kind: "reply", text: "Hello there.", usage: { input: 100, output: 7, reasoning: 3, cached: 64 } });
    const { stream } = await modelFor(server).doStream(contractCall({ maxOutputTokens: 50, temperature: 0.2, stopSequences: ["END"] }));
    const parts = await drain(stream);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe("Bearer sk-test");
    expect(sent.body).toMatchObject({
      model: "gpt-test",
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 50,
      temperature: 0.2,
      stop: ["END"],
    });
    expect(sent.body.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
    expect(parts.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      usage: { promptTokens: 100, completionTokens: 7, reasoningTokens: 3, cachedTokens: 64 },
    });
  });

  it.each([
    [401, "BAD_GATEWAY", /OPENAI_API_KEY/],
    [404, "BAD_GATEWAY", /PROVIDER_A_MODEL/],
    [400, "BAD_REQUEST", /rejected the request/],
    [429, "SERVICE_UNAVAILABLE", /overloaded or rate-limited/],
    [500, "BAD_GATEWAY", /HTTP 500/],
    [504, "GATEWAY_TIMEOUT", /timed out/],
  ])("maps HTTP %i to %s", async (status, code, message) => {
    server.queue({ kind: "status", status });
    const error = await modelFor(server)
      .doStream(contractCall())
      .catch((e) => e);
    expect(error).toBeInstanceOf(DocentError);
    expect(error).toMatchObject({ code });
    expect(error.message).toMatch(message);
  });

  it("tells the caller what a provider's error says, not the key, paths or stack trace it echoes", async () => {
    for (const status of [400, 500]) {
      server.queue({
        kind: "status",
        status,
        message:
          "Context too long for your key Bearer sk-probe-secret-key (sk-live-0123456789abcdef); see /srv/provider/app/handler.js:10:5 via postgres://docent:hunter2@db.internal:5432\n    at run (/srv/x.js:1:1)",
      });
      const error = await modelFor(server)
        .doStream(contractCall())
        .catch((e) => e);
      expect(error.message).toMatch(/Context too long for your key Bearer \[redacted\]/);
      expect(error.message).not.toMatch(/sk-probe|sk-live|\/srv\/|at run|hunter2/);
    }
    // Secrets written as name=value, and addresses on the provider's network.
    server.queue({
      kind: "status",
      status: 500,
      message: "Upstream failed: token=abcd1234efgh5678, secret: hunter2; password=p4ss at internal host 10.2.3.4:8080 and cache.internal:6379",
    });
    const error = await modelFor(server)
      .doStream(contractCall())
      .catch((e) => e);
    expect(error.message).toMatch(
      /Upstream failed: token=\[redacted\], secret: \[redacted\]; password=\[redacted\] at internal host \[address\] and \[address\]/,
    );
    expect(error.message).not.toMatch(/abcd1234|hunter2|p4ss|10\.2\.3\.4|cache\.internal|8080|6379/);
  });

  it("ends a stream whose event never ends (no blank line) once it is past the size of any chunk, not holding it all", async () => {
    server.queue({ kind: "no-blank-lines", lines: 40_000 });
    const parts = await drain((await modelFor(server).doStream(contractCall())).stream);
    const error = parts.find((p) => p.type === "error") as { error: DocentError } | undefined;
    expect(error?.error).toMatchObject({ code: "BAD_GATEWAY" });
    expect(error?.error.message).toMatch(/longer than 4194304 characters/);
  });

  it("reports a stream cut mid-way: no finish part", async () => {
    server.queue({ kind: "cut", text: "one two three four five", cutAfter: 2 });
    const parts = await drain((await modelFor(server).doStream(contractCall())).stream);
    expect(parts.filter((p) => p.type === "text-delta").length).toBeGreaterThan(0);
    expect(parts.some((p) => p.type === "finish")).toBe(false);
  });

  it("turns an in-stream error event into an error part", async () => {
    server.queue({ kind: "stream-error", text: "partial answer", message: "the model crashed" });
    const parts = await drain((await modelFor(server).doStream(contractCall())).stream);
    const error = parts.find((p) => p.type === "error");
    expect(error).toBeDefined();
    expect((error as { error: DocentError }).error.message).toMatch(/the model crashed/);
  });

  it("stops the provider's stream when the caller aborts", async () => {
    server.queue({ kind: "endless", intervalMs: 10 });
    const before = server.clientAborts;
    const controller = new AbortController();
    const { stream } = await modelFor(server).doStream(contractCall({ abortSignal: controller.signal }));
    let seen = 0;
    // The SDK ends the iteration (or throws an abort error) once aborted; either way no finish part.
    const parts = await (async () => {
      const out: string[] = [];
      try {
        for await (const part of stream) {
          out.push(part.type);
          if (part.type === "text-delta" && ++seen === 3) controller.abort();
        }
      } catch (error) {
        expect((error as Error).name).toMatch(/Abort/);
      }
      return out;
    })();
    expect(parts).not.toContain("finish");
    await new Promise((r) => setTimeout(r, 100));
    expect(server.clientAborts).toBe(before + 1);
  });
});
