import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviderServer, startFakeProviderServer } from "../../test/support/fake-provider-server.ts";
import { DocentError, isAbortError } from "../core/errors.ts";
import { contractCall, drain, languageModelContract } from "../core/language-model.contract.ts";
import { createAnthropicModel } from "./anthropic/anthropic-model.ts";
import { createOpenAIModel } from "./openai/openai-model.ts";
import { type RetryPolicy, withRetries } from "./retrying-model.ts";

const POLICY: RetryPolicy = { maxRetries: 2, attemptTimeoutMs: 5000, deadlineMs: 60_000, random: () => 0 };
const label = (provider: string) => ({ name: "provider_x", provider, modelId: "m", keyVariable: "KEY", modelVariable: "MODEL" });
const models = {
  openai: (server: FakeProviderServer, policy = POLICY) =>
    withRetries(
      createOpenAIModel({
        client: new OpenAI({ apiKey: "k", baseURL: server.openaiBaseUrl, maxRetries: 0 }),
        label: label("openai"),
        maxTokensField: "max_tokens",
      }),
      "provider_x",
      policy,
    ),
  anthropic: (server: FakeProviderServer, policy = POLICY) =>
    withRetries(
      createAnthropicModel({ client: new Anthropic({ apiKey: "k", baseURL: server.anthropicBaseUrl, maxRetries: 0 }), label: label("anthropic") }),
      "provider_x",
      policy,
    ),
};

for (const [name, make] of Object.entries(models)) {
  languageModelContract(`${name} with retries`, async () => {
    const server = await startFakeProviderServer({ kind: "reply", text: "Use CREATE INDEX with a WHERE clause [1]." });
    return { model: make(server), cleanup: server.close };
  });
}

describe.each(Object.entries(models))("withRetries around the %s adapter", (_, make) => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeProviderServer();
  });
  afterAll(() => server.close());

  it("hands on the parts it read to find the first token, then the rest", async () => {
    server.queue({ kind: "stream-error", text: "", message: "busy" }, { kind: "reply", text: "one two three" });
    const parts = await drain((await make(server).doStream(contractCall())).stream);
    expect(
      parts
        .filter((p) => p.type === "text-delta")
        .map((p) => (p.type === "text-delta" ? p.delta : ""))
        .join(""),
    ).toBe("one two three");
    expect(parts.at(-1)).toMatchObject({ type: "finish" });
  });

  it("does not retry an error event after text: the stream ends with it", async () => {
    const before = server.requests.length;
    server.queue({ kind: "stream-error", text: "partial answer", message: "busy" });
    const parts = await drain((await make(server).doStream(contractCall())).stream);
    expect(parts.at(-1)).toMatchObject({ type: "error" });
    expect(server.requests.length - before).toBe(1);
  });

  it("does not retry what the caller got wrong", async () => {
    const before = server.requests.length;
    server.queue({ kind: "status", status: 400 });
    await expect(make(server).doStream(contractCall())).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(server.requests.length - before).toBe(1);
  });

  it("times out an attempt that stays silent after its headers, and tries again", async () => {
    server.queue({ kind: "hang", afterHeaders: true }, { kind: "reply", text: "second try" });
    const { stream } = await make(server, { ...POLICY, attemptTimeoutMs: 300 }).doStream(contractCall());
    expect((await drain(stream)).find((p) => p.type === "text-delta")).toEqual({ type: "text-delta", delta: "second " });
    expect(server.requests.at(-2)!.abortedAt).toBeDefined();
  });

  it("retries doGenerate too", async () => {
    server.queue({ kind: "status", status: 502 }, { kind: "reply", text: "generated" });
    expect((await make(server).doGenerate(contractCall())).text).toBe("generated");
  });

  it("stops waiting out a Retry-After the moment the caller aborts", async () => {
    const before = server.requests.length;
    server.queue({ kind: "status", status: 429, headers: { "retry-after": "50" } });
    const controller = new AbortController();
    const call = make(server).doStream(contractCall({ abortSignal: controller.signal }));
    await expect.poll(() => server.requests.length).toBe(before + 1);
    controller.abort();
    // Rejects now, not after 50 s (the test's own time limit is 5 s).
    const error = await call.catch((e) => e);
    expect(isAbortError(error)).toBe(true);
    expect(server.requests.length).toBe(before + 1);
  });

  it("gives up with a Retry-After for the caller even when the provider gave none", async () => {
    server.queue({ kind: "status", status: 500 }, { kind: "status", status: 500 });
    const error = await make(server, { ...POLICY, maxRetries: 1 })
      .doStream(contractCall())
      .catch((e) => e);
    expect(error).toBeInstanceOf(DocentError);
    expect(error).toMatchObject({ code: "BAD_GATEWAY", retryable: true, retryAfter: 1 });
    expect(error.message).toContain("2 attempts");
  });
});
