import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompletionOutcome } from "../src/core/completion-outcome.ts";
import type { FakeProviderServer } from "./support/fake-provider-server.ts";
import { parseMetrics } from "./support/prometheus.ts";
import { pageOf, type ServerWithProviders, startServerWithProviders, type TestServer } from "./support/test-server.ts";

/**
 * provider_a and provider_b end to end: the service's real SDK clients talk
 * to a local server speaking OpenAI's and Anthropic's wire protocols.
 */
describe("REST with provider models", () => {
  let fake: FakeProviderServer;
  let server: TestServer;
  let client: OpenAI;
  let running: ServerWithProviders;
  beforeAll(async () => {
    running = await startServerWithProviders(
      { kind: "reply", text: "Run CLUSTER with the index name [1]." },
      {
        AGENT_MODEL: "provider_b",
        PROVIDER_A_MODEL: "gpt-upstream",
        PROVIDER_B_MODEL: "claude-upstream",
      },
    );
    ({ fake, server, client } = running);
  });
  afterAll(() => running.close());

  const params = (model: string, extra: object = {}) =>
    ({
      model,
      messages: [{ role: "user" as const, content: "How do I physically reorder a table according to an index?" }],
      sources: [server.sources.pg],
      ...extra,
    }) as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
  const post = (body: object) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("provider_a answers through the OpenAI protocol, grounded in the retrieved passages", async () => {
    fake.queue({ kind: "reply", text: "Use CLUSTER table USING index [1].", usage: { input: 321, output: 9, reasoning: 4 } });
    const completion = (await client.chat.completions.create(params("provider_a"))) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    expect(completion.choices[0]!.message.content).toBe("Use CLUSTER table USING index [1].");
    expect(completion.model).toBe("provider_a");
    expect(completion.usage).toMatchObject({ prompt_tokens: 321, completion_tokens: 9, total_tokens: 330, completion_tokens_details: { reasoning_tokens: 4 } });
    expect(pageOf(completion.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.body.model).toBe("gpt-upstream");
    expect(sent.body.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user", "user"]);
    expect(sent.body.messages[1].content).toContain("[1] CLUSTER");
    expect(sent.body.messages[1].content).toContain("physically reordered based on the index information");
  });

  it("reports the prompt tokens the provider's cache served, as OpenAI does, on Chat Completions (whole and streamed) and the Responses API", async () => {
    const usage = { input: 321, output: 9, cached: 256 };
    fake.queue({ kind: "reply", text: "Use CLUSTER [1].", usage });
    const whole = await client.chat.completions.create(params("provider_a"));
    expect(whole.usage).toMatchObject({ prompt_tokens: 321, prompt_tokens_details: { cached_tokens: 256 } });
    fake.queue({ kind: "reply", text: "Use CLUSTER [1].", usage });
    let streamed: OpenAI.CompletionUsage | undefined;
    for await (const chunk of await client.chat.completions.create({ ...params("provider_a"), stream: true, stream_options: { include_usage: true } })) {
      streamed = chunk.usage ?? streamed;
    }
    expect(streamed).toMatchObject({ prompt_tokens: 321, prompt_tokens_details: { cached_tokens: 256 } });
    fake.queue({ kind: "reply", text: "Use CLUSTER [1].", usage });
    const response = await client.responses.create({ model: "provider_a", input: "How do I physically reorder a table according to an index?" });
    expect(response.usage).toMatchObject({ input_tokens: 321, input_tokens_details: { cached_tokens: 256 } });
  });

  it.each(["provider_a", "provider_b"])("%s: the system message sent upstream holds no retrieved text, only the delimited block does", async (model) => {
    fake.queue({ kind: "reply", text: "Use CLUSTER [1]." });
    await client.chat.completions.create(params(model));
    const { body } = fake.requests.at(-1)!;
    const system: string = model === "provider_a" ? body.messages[0].content : body.system;
    const turns: Array<{ role: string; content: string }> = model === "provider_a" ? body.messages.slice(1) : body.messages;
    const tag = /between <(documentation-[0-9a-f]+)>/.exec(system)?.[1];
    expect(tag).toBeDefined();
    for (const documentText of ["physically reordered based on the index information", "CLUSTER", "postgresql.org"]) expect(system).not.toContain(documentText);
    const block = turns[0]!.content;
    expect(turns[0]!.role).toBe("user");
    expect(block).toContain(`<${tag}>`);
    expect(block.indexOf("physically reordered based on the index information")).toBeLessThan(block.indexOf(`</${tag}>`));
    // The caller's question follows the block, outside it.
    expect(turns.at(-1)!.content.endsWith("How do I physically reorder a table according to an index?")).toBe(true);
    expect(turns.at(-1)!.content.lastIndexOf(`</${tag}>`)).toBeLessThan(turns.at(-1)!.content.indexOf("How do I physically"));
  });

  it("provider_a: a model's refusal is said as OpenAI says it (message.refusal, content null, delta.refusal), and draws on no page", async () => {
    const text = "I can't help with that request.";
    fake.queue({ kind: "reply", text, refusal: true }, { kind: "reply", text, refusal: true });
    const scrape = async () => parseMetrics(await (await fetch(`${server.url}/metrics`)).text());
    const before = await scrape();
    const whole = (await client.chat.completions.create(params("provider_a"))) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    // Counted as a refusal, and as a provider call: the model was asked (only the fixed no-coverage reply asks none).
    const after = await scrape();
    expect(after.value("docent_refusals_total", { model: "provider_a" }) - before.value("docent_refusals_total", { model: "provider_a" })).toBe(1);
    expect(
      after.count("docent_provider_duration_seconds", { provider: "openai" }) - before.count("docent_provider_duration_seconds", { provider: "openai" }),
    ).toBe(1);
    expect(whole.choices[0]!.message).toMatchObject({ content: null, refusal: text, annotations: [] });
    expect(whole.choices[0]!.finish_reason).toBe("stop");
    expect(whole.url_references).toEqual([]);
    expect(whole.usage!.completion_tokens).toBeGreaterThan(0);
    const chunks: Array<OpenAI.Chat.ChatCompletionChunk & { url_references: string[] }> = [];
    for await (const chunk of await client.chat.completions.create({ ...params("provider_a"), stream: true })) chunks.push(chunk as (typeof chunks)[number]);
    expect(chunks.map((c) => c.choices[0]?.delta.refusal ?? "").join("")).toBe(text);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("");
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    // The role's chunk already says the reply is a refusal, as OpenAI's does; no chunk says there is text.
    expect(chunks[0]!.choices[0]!.delta).toMatchObject({ role: "assistant", content: null, refusal: "" });
    expect(chunks.every((c) => c.choices[0]!.delta.content === null)).toBe(true);
    expect(chunks.every((c) => c.url_references.length === 0)).toBe(true);

    // Sent back as the SDK hands it over (content null, refusal set) or as a refusal part: the assistant's turn is what it said.
    for (const declined of [whole.choices[0]!.message, { role: "assistant", content: [{ type: "refusal", refusal: text }] }]) {
      const next = fake.requests.length;
      await client.chat.completions.create({
        ...params("provider_a"),
        messages: [
          { role: "user", content: "First?" },
          declined as never,
          { role: "user", content: "How do I physically reorder a table according to an index?" },
        ],
      });
      const sent = fake.requests[next]!.body.messages as Array<{ role: string; content: string }>;
      expect(sent.filter((m) => m.role === "assistant").map((m) => m.content)).toEqual([text]);
    }
  });

  it("provider_b: a refusal stop (Anthropic's classifier) ends the reply as content_filter and draws on no page", async () => {
    const text = "I can't help with that request.";
    fake.queue({ kind: "reply", text, finish: "refusal" }, { kind: "reply", text, finish: "refusal" });
    const whole = (await client.chat.completions.create(params("provider_b"))) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    expect(whole.choices[0]!.message.content).toBe(text);
    expect(whole.choices[0]!.finish_reason).toBe("content_filter");
    expect(whole.url_references).toEqual([]);
    const chunks: Array<OpenAI.Chat.ChatCompletionChunk & { url_references: string[] }> = [];
    for await (const chunk of await client.chat.completions.create({ ...params("provider_b"), stream: true })) chunks.push(chunk as (typeof chunks)[number]);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe(text);
    expect(chunks.every((c) => c.url_references.length === 0)).toBe(true);
  });

  it("a reply saying the excerpts do not answer lists no page and is recorded as a refusal, as the coverage judge's are", async () => {
    const outcomes: CompletionOutcome[] = [];
    server.services.completionObservers.push({ onCompletion: (outcome) => void outcomes.push(outcome) });
    fake.queue({ kind: "reply", text: "The knowledge sources do not cover this question." }, { kind: "reply", text: "Use CLUSTER [1]." });
    const declined = (await client.chat.completions.create(params("provider_a"))) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    expect(declined.url_references).toEqual([]);
    expect(outcomes.at(-1)!.grounding).toMatchObject({ refused: true });
    await client.chat.completions.create(params("provider_a"));
    expect(outcomes.at(-1)!.grounding).toMatchObject({ refused: false });
  });

  it("an empty reply draws on no page", async () => {
    fake.queue({ kind: "reply", text: "" });
    const whole = (await client.chat.completions.create(params("provider_a"))) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    expect(whole.choices[0]!.message.content).toBe("");
    expect(whole.url_references).toEqual([]);
  });

  it("lists only the sections a model cites, renumbered in citation order", async () => {
    const ask = (extra: object = {}) => post({ ...params("provider_a"), messages: [{ role: "user", content: "vacuum cluster index table" }], ...extra });
    fake.queue({ kind: "reply", text: "See this page [3] and again [3]." }, { kind: "reply", text: "See this page [3] and again [3]." });
    const streamed = await (await ask({ stream: true })).text();
    const chunks = streamed
      .split("\n\n")
      .filter((f) => f.startsWith("data: {"))
      .map((f) => JSON.parse(f.slice(6)));
    // [3] is the excerpt the prompt numbered 3.
    const third = /^\[3\] .* \((\S+)\)$/m.exec(
      fake.requests
        .at(-1)!
        .body.messages.map((m: { content: string }) => m.content)
        .join("\n"),
    )![1]!;
    // Before the citation, chunks list no page; from it on, the one it cites.
    expect(chunks[0].url_references).toEqual([]);
    expect(chunks.map((c) => c.url_references.length)).toContain(1);
    expect(chunks.every((c) => c.url_references.length === 0 || (c.url_references.length === 1 && c.url_references[0] === third))).toBe(true);
    const whole: any = await (await ask()).json();
    expect(whole.choices[0].message.content).toBe("See this page [1] and again [1].");
    expect(whole.url_references).toEqual([third]);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe(whole.choices[0].message.content);
    expect(chunks.find((c) => c.choices[0]?.finish_reason).url_references).toEqual(whole.url_references);
  });

  it("provider_b streams through the Anthropic protocol, and the agent uses AGENT_MODEL", async () => {
    fake.queue({ kind: "reply", text: "Streamed answer from Claude [1]." }, { kind: "reply", text: "Agent answer [1]." });
    const stream = await client.chat.completions.create({ ...params("provider_b"), stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("Streamed answer from Claude [1].");
    expect(fake.requests.at(-1)!.path).toBe("/v1/messages");
    expect(fake.requests.at(-1)!.body.model).toBe("claude-upstream");

    const response = await post(params("agent"));
    expect(response.headers.get("x-docent-model")).toBe("anthropic/claude-upstream");
    expect(((await response.json()) as any).choices[0].message.content).toBe("Agent answer [1].");
  });

  it.each([
    [500, 502],
    [429, 503],
    [504, 504],
    [401, 502],
  ])("an upstream HTTP %i becomes %i in OpenAI's error shape", async (upstream, status) => {
    fake.queue({ kind: "status", status: upstream });
    const response = await post(params("provider_a"));
    expect(response.status).toBe(status);
    const body = (await response.json()) as any;
    expect(body.error).toMatchObject({ type: "server_error" });
    expect(body.error.message).toContain("provider_a");
  });

  it("a stream cut mid-way ends with an error event and closes (no [DONE])", async () => {
    fake.queue({ kind: "cut", text: "one two three four five six", cutAfter: 3 });
    const response = await post({ ...params("provider_a"), stream: true });
    expect(response.status).toBe(200);
    const frames = (await response.text()).split("\n\n").filter(Boolean);
    expect(frames.at(-1)).not.toBe("data: [DONE]");
    const last = JSON.parse(frames.at(-1)!.slice("data: ".length));
    expect(last.error).toMatchObject({ type: "server_error" });
    // What arrived before the cut was relayed (a last space waits for what follows it).
    const relayed = frames
      .filter((f) => f.startsWith("data: {") && f.includes('"choices":[{'))
      .map((f) => JSON.parse(f.slice(6)).choices[0].delta.content ?? "")
      .join("");
    expect(relayed).toMatch(/^one two/);

    fake.queue({ kind: "cut", text: "one two three", cutAfter: 1 });
    const whole = await post(params("provider_b"));
    expect(whole.status).toBe(502);
  });

  it("the openai SDK sees a mid-stream error as an APIError", async () => {
    fake.queue({ kind: "stream-error", text: "partial", message: "upstream exploded" });
    const stream = await client.chat.completions.create({ ...params("provider_a"), stream: true });
    await expect(
      (async () => {
        for await (const _ of stream);
      })(),
    ).rejects.toThrow(/upstream exploded/);
  });

  it("a client that disconnects aborts the provider call", async () => {
    fake.queue({ kind: "endless", intervalMs: 15 });
    const before = fake.clientAborts;
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ ...params("provider_a"), stream: true }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    controller.abort();
    const deadline = Date.now() + 3000;
    while (fake.clientAborts === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(fake.clientAborts).toBe(before + 1);
  });

  it("does not call a provider when nothing relevant was retrieved", async () => {
    const count = fake.requests.length;
    const reply: any = await (await post({ model: "provider_a", messages: [{ role: "user", content: "tulip bulbs planting season" }] })).json();
    expect(reply.url_references).toEqual([]);
    expect(fake.requests.length).toBe(count);
  });
});
