import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlRequest } from "./support/clients.ts";
import type { FakeProviderServer } from "./support/fake-provider-server.ts";
import { type ServerWithProviders, startServerWithProviders } from "./support/test-server.ts";

/**
 * Provider failures through the real service, the real SDKs on both sides
 * and a local server speaking OpenAI's and Anthropic's wire protocols:
 * retries before the first token, deadlines, Retry-After, AGENT_FALLBACK.
 */
const FAULTS_ENV = {
  PROVIDER_MAX_RETRIES: "2",
  PROVIDER_TIMEOUT_MS: "1000",
  PROVIDER_DEADLINE_MS: "2500",
  PROVIDER_A_MODEL: "gpt-upstream",
  PROVIDER_B_MODEL: "claude-upstream",
};
const QUESTION = "How do I physically reorder a table according to an index?";
const PATHS = { provider_a: "/v1/chat/completions", provider_b: "/v1/messages" } as const;

type Running = ServerWithProviders;
const ask = (running: Running, body: object) =>
  fetch(`${running.server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${running.server.key}`, "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: QUESTION }], sources: [running.server.sources.pg], ...body }),
    // Past this the service is taken to hang: far beyond the deadlines configured here.
    signal: AbortSignal.timeout(15_000),
  });
const sseFrames = async (response: Response) => (await response.text()).split("\n\n").filter(Boolean);
const streamedText = (frames: string[]) =>
  frames
    .filter((f) => f.startsWith("data: {"))
    .map((f) => JSON.parse(f.slice(6)).choices?.[0]?.delta?.content ?? "")
    .join("");

describe("upstream faults, before and after the first token", () => {
  let running: Running;
  let fake: FakeProviderServer;
  let client: OpenAI;
  beforeAll(async () => {
    running = await startServerWithProviders({ kind: "reply", text: "Use CLUSTER [1]." }, { ...FAULTS_ENV, AGENT_MODEL: "provider_a" });
    ({ fake, client } = running);
  });
  afterAll(() => running.close());
  const sentSince = (count: number) => fake.requests.slice(count);

  it("passes the provider's Retry-After on over GraphQL and tRPC too, in their own error forms", async () => {
    const input = { model: "provider_a", messages: [{ role: "user", content: QUESTION }], sources: [running.server.sources.pg] };
    fake.queue({ kind: "status", status: 429, headers: { "retry-after": "30" } });
    const graphql = await graphqlRequest(
      running.server.url,
      running.server.key,
      "mutation ($input: ChatCompletionInput!) { createChatCompletion(input: $input) { id } }",
      {
        input,
      },
    );
    // An execution error's response is a 200: the wait is in the error's extensions.
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true, retryAfter: 30 });
    fake.queue({ kind: "status", status: 429, headers: { "retry-after": "30" } });
    const trpc = await fetch(`${running.server.url}/trpc/chat.completions.create`, {
      method: "POST",
      headers: { authorization: `Bearer ${running.server.key}`, "content-type": "application/json" },
      body: JSON.stringify(input),
    });
    expect(trpc.status).toBe(503);
    expect(((await trpc.json()) as any).error.data).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryAfter: 30 });
    expect(trpc.headers.get("retry-after")).toBe("30");
  });

  describe.each(["provider_a", "provider_b"] as const)("%s", (model) => {
    it("retries a 429 and an error event before any text, and answers", async () => {
      let before = fake.requests.length;
      fake.queue({ kind: "status", status: 429 }, { kind: "reply", text: "Answered after a 429 [1]." });
      const completion = await client.chat.completions.create({
        model,
        messages: [{ role: "user", content: QUESTION }],
        sources: [running.server.sources.pg],
      } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
      expect(completion.choices[0]!.message.content).toBe("Answered after a 429 [1].");
      expect(sentSince(before).map((r) => r.path)).toEqual([PATHS[model], PATHS[model]]);

      before = fake.requests.length;
      fake.queue({ kind: "stream-error", text: "", message: "overloaded, try again" }, { kind: "reply", text: "Answered after an error event [1]." });
      const stream = await client.chat.completions.create({
        model,
        messages: [{ role: "user", content: QUESTION }],
        sources: [running.server.sources.pg],
        stream: true,
      } as OpenAI.Chat.ChatCompletionCreateParamsStreaming);
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      expect(text).toBe("Answered after an error event [1].");
      expect(sentSince(before)).toHaveLength(2);
    });

    it("gives up on persistent 500s after the configured attempts, with a clear 502", async () => {
      const before = fake.requests.length;
      fake.queue({ kind: "status", status: 500 }, { kind: "status", status: 500 }, { kind: "status", status: 500 });
      const error = await client.chat.completions
        .create({
          model,
          messages: [{ role: "user", content: QUESTION }],
          sources: [running.server.sources.pg],
        } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming)
        .catch((e) => e);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error.status).toBe(502);
      expect(error.error).toMatchObject({ type: "server_error", code: "provider_error" });
      expect(error.message).toMatch(new RegExp(`${model}.*HTTP 500.*3 attempts`));
      // 1 attempt + PROVIDER_MAX_RETRIES (2), no more.
      expect(sentSince(before)).toHaveLength(3);
    });

    it("waits at least the provider's retry-after-ms and Retry-After between attempts, and passes the last one on", async () => {
      const before = fake.requests.length;
      fake.queue(
        { kind: "status", status: 429, headers: { "retry-after-ms": "600" } },
        { kind: "status", status: 429, headers: { "retry-after": "1" } },
        { kind: "status", status: 503, headers: { "retry-after": "1" } },
      );
      const response = await ask(running, { model });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(((await response.json()) as any).error).toMatchObject({ type: "server_error", code: "provider_unavailable" });
      const at = sentSince(before).map((r) => r.receivedAt);
      expect(at).toHaveLength(3);
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(600);
      expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(1000);
    });

    it("does not wait out a Retry-After longer than the deadline: 503 at once, passing it on", async () => {
      const before = fake.requests.length;
      fake.queue({ kind: "status", status: 429, headers: { "retry-after": "30" } });
      const response = await ask(running, { model });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("30");
      expect(sentSince(before)).toHaveLength(1);
    });

    it("ends a provider that hangs (before or after its headers) with a 504 within the deadline, cancelling each attempt", async () => {
      const before = fake.requests.length;
      fake.queue({ kind: "hang" }, { kind: "hang", afterHeaders: true });
      const response = await ask(running, { model });
      expect(response.status).toBe(504);
      const body: any = await response.json();
      expect(body.error).toMatchObject({ type: "server_error", code: "provider_timeout" });
      expect(body.error.message).toContain(model);
      const sent = sentSince(before);
      expect(sent).toHaveLength(2);
      // The service closed both upstream connections itself.
      await expect.poll(() => sent.every((r) => r.abortedAt !== undefined)).toBe(true);
    });

    it("retries a stream cut before any text, but ends one cut after text with the error event", async () => {
      const before = fake.requests.length;
      fake.queue({ kind: "cut", text: "lost", cutAfter: 0 }, { kind: "cut", text: "one two three four", cutAfter: 2 });
      const response = await ask(running, { model, stream: true });
      expect(response.status).toBe(200);
      const frames = await sseFrames(response);
      expect(streamedText(frames)).toBe("one two ");
      expect(frames.at(-1)).not.toBe("data: [DONE]");
      expect(JSON.parse(frames.at(-1)!.slice(6)).error).toMatchObject({ type: "server_error" });
      expect(sentSince(before)).toHaveLength(2);
    });
  });

  it("without AGENT_FALLBACK the agent does not turn to the other provider", async () => {
    const before = fake.requests.length;
    fake.queue({ kind: "status", status: 500 }, { kind: "status", status: 500 }, { kind: "status", status: 500 });
    const response = await ask(running, { model: "agent" });
    expect(response.status).toBe(502);
    expect(sentSince(before).map((r) => r.path)).toEqual([PATHS.provider_a, PATHS.provider_a, PATHS.provider_a]);
  });
});

describe.each([
  ["provider_a", "anthropic/claude-upstream", PATHS.provider_b],
  ["provider_b", "openai/gpt-upstream", PATHS.provider_a],
] as const)("AGENT_FALLBACK with AGENT_MODEL=%s", (agentModel, fallbackModel, fallbackPath) => {
  let running: Running;
  beforeAll(async () => {
    running = await startServerWithProviders(
      { kind: "reply", text: "Use CLUSTER [1]." },
      { ...FAULTS_ENV, PROVIDER_MAX_RETRIES: "1", AGENT_MODEL: agentModel, AGENT_FALLBACK: "1" },
    );
  });
  afterAll(() => running.close());

  it("the other provider answers when the agent's fails before the first token, after its retries", async () => {
    const { fake } = running;
    const before = fake.requests.length;
    fake.queue({ kind: "status", status: 503 }, { kind: "status", status: 500 }, { kind: "reply", text: "The other provider answers [1]." });
    const response = await ask(running, { model: "agent" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-docent-model")).toBe(fallbackModel);
    expect(((await response.json()) as any).choices[0].message.content).toBe("The other provider answers [1].");
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual([PATHS[agentModel], PATHS[agentModel], fallbackPath]);
  });

  it("does not hand over an error that is not the provider's passing trouble (a rejected key)", async () => {
    const { fake } = running;
    const before = fake.requests.length;
    fake.queue({ kind: "status", status: 401 });
    const response = await ask(running, { model: "agent" });
    expect(response.status).toBe(502);
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual([PATHS[agentModel]]);
  });
});
