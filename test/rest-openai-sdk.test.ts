import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageOf, startTestServer, type TestServer } from "./support/test-server.ts";

/** The REST surface through the real `openai` SDK, streamed and not. */
describe("REST chat completions with the openai SDK", () => {
  let server: TestServer;
  let client: OpenAI;
  beforeAll(async () => {
    server = await startTestServer();
    client = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => server.close());

  const ask = (content: string, extra: Record<string, unknown> = {}) =>
    ({ model: "agent", messages: [{ role: "user" as const, content }], ...extra }) as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

  it("answers with a complete chat.completion object grounded in the named source", async () => {
    const completion = (await client.chat.completions.create(
      ask("How do I physically reorder a table according to an index?", { sources: [server.sources.pg] }),
    )) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    expect(completion.id).toMatch(/^chatcmpl-[0-9a-f]+$/);
    expect(completion.object).toBe("chat.completion");
    expect(completion.created).toBeGreaterThan(1_700_000_000);
    expect(completion.model).toBe("agent");
    expect(completion.system_fingerprint).toMatch(/^fp_[0-9a-f]+$/);
    const choice = completion.choices[0]!;
    expect(choice).toMatchObject({ index: 0, logprobs: null, finish_reason: "stop", message: { role: "assistant" } });
    expect(choice.message.content).toMatch(/physically reordered based on the index information\. \[1\]/);
    expect(pageOf(completion.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
    // References point at the section that answered, by its id in the page.
    expect(completion.url_references[0]).toMatch(/^https:\/\/www\.postgresql\.org\/docs\/15\/sql-cluster\.html#(SQL-CLUSTER|id-1\.9\.3\.64\.\d)$/);
    expect(completion.url_references.every((u) => u.startsWith("https://www.postgresql.org/docs/15/"))).toBe(true);
    expect(completion.usage).toMatchObject({ completion_tokens_details: { reasoning_tokens: 0 } });
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(50);
    expect(completion.usage!.completion_tokens).toBeGreaterThan(5);
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
    // Citations also as OpenAI-standard annotations.
    const annotations = (choice.message as { annotations?: Array<{ type: string; url_citation: { url: string; start_index: number; end_index: number } }> })
      .annotations!;
    expect(annotations.map((a) => a.url_citation.url)).toEqual(completion.url_references);
    const first = annotations[0]!.url_citation;
    expect(choice.message.content!.slice(first.start_index, first.end_index)).toBe("[1]");
  });

  it("streams true deltas whose text equals the non-streamed reply, with url_references on every chunk", async () => {
    const params = ask("How do I physically reorder a table according to an index?", { sources: [server.sources.pg], include_references: true });
    const whole = (await client.chat.completions.create(params)) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } });
    const chunks: Array<OpenAI.Chat.ChatCompletionChunk & { url_references?: string[] }> = [];
    for await (const chunk of stream) chunks.push(chunk);

    const content = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(content).toBe(whole.choices[0]!.message.content);
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(c.object).toBe("chat.completion.chunk");
      expect(c.id).toBe(chunks[0]!.id);
      // Every chunk lists the sections cited so far: the start of the final list, never a page the answer does not cite.
      expect(whole.url_references.slice(0, c.url_references!.length)).toEqual(c.url_references);
    }
    expect(chunks[0]!.url_references).toEqual([]);
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    const finish = chunks.filter((c) => c.choices[0]?.finish_reason);
    expect(finish).toHaveLength(1);
    expect(finish[0]!.choices[0]!.finish_reason).toBe("stop");
    expect(finish[0]!.url_references).toEqual(whole.url_references);
    const usage = chunks.at(-1)!;
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual(whole.usage);
    // include_references appends each reference's title and URL, streamed like the rest.
    expect(content).toContain("\n\nReferences:\n[1] CLUSTER — cluster a table according to an index: https://www.postgresql.org/docs/15/sql-cluster.html");
  });

  it("limits replies and references to the listed sources", async () => {
    const pg = (await client.chat.completions.create(ask("What does VACUUM do?", { sources: [server.sources.pg] }))) as unknown as { url_references: string[] };
    const lite = (await client.chat.completions.create(ask("What does VACUUM do?", { sources: [server.sources.sqlite] }))) as unknown as {
      url_references: string[];
    };
    expect(pg.url_references.length).toBeGreaterThan(0);
    expect(pg.url_references.every((u) => u.startsWith("https://www.postgresql.org/"))).toBe(true);
    expect(lite.url_references.map(pageOf)).toContain("https://www.sqlite.org/lang/vacuum.md");
    expect(lite.url_references.every((u) => u.startsWith("https://www.sqlite.org/"))).toBe(true);
  });

  it("lets the agent choose the source a question names", async () => {
    const reply = (await client.chat.completions.create(ask("How do I shrink the database file in SQLite with VACUUM?"))) as unknown as {
      url_references: string[];
    };
    expect(pageOf(reply.url_references[0])).toBe("https://www.sqlite.org/lang/vacuum.md");
    expect(reply.url_references.every((u) => u.startsWith("https://www.sqlite.org/"))).toBe(true);
  });

  it("says the sources do not cover an off-topic question, with no references", async () => {
    const reply = (await client.chat.completions.create(ask("Tulip bulbs planting season?"))) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    expect(reply.url_references).toEqual([]);
    expect(reply.choices[0]!.message.content).toMatch(/do not cover/);
  });

  it("does not take a passage holding one of a question's two telling words as an answer", async () => {
    // "vacuum" is documented, "jupiter" nowhere: the best passage covers half the question.
    const half = (await client.chat.completions.create(ask("Is there a VACUUM on Jupiter?"))) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    expect(half.url_references).toEqual([]);
    expect(half.choices[0]!.message.content).toMatch(/do not cover/);
    const whole = (await client.chat.completions.create(ask("Is there a VACUUM on disk?"))) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    expect(whole.url_references.length).toBeGreaterThan(0);
  });

  it("surfaces errors as the SDK's typed errors", async () => {
    const unknown = "3f2b8c1e-0000-4000-8000-000000000000";
    await expect(client.chat.completions.create(ask("vacuum", { sources: [unknown] }))).rejects.toMatchObject({
      status: 404,
      code: "source_not_found",
      param: "sources[0]",
    });
    await expect(client.chat.completions.create(ask("vacuum", { model: "gpt-nope" }))).rejects.toMatchObject({ status: 404, code: "model_not_found" });
    await expect(client.chat.completions.create(ask("vacuum", { model: "provider_b" }))).rejects.toMatchObject({ status: 400, code: "model_not_configured" });
    const bad = new OpenAI({ apiKey: "dk_wrong", baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(bad.chat.completions.create(ask("vacuum"))).rejects.toMatchObject({ status: 401 });
  });

  it("refuses tools and a demanded tool call as unsupported, and takes what asks for none", async () => {
    const tool = { type: "function" as const, function: { name: "lookup", parameters: { type: "object", properties: {} } } };
    await expect(client.chat.completions.create({ ...ask("vacuum"), tools: [tool] })).rejects.toMatchObject({
      status: 400,
      code: "unsupported_parameter",
      param: "tools",
    });
    await expect(client.chat.completions.create({ ...ask("vacuum"), tool_choice: "required" })).rejects.toMatchObject({
      status: 400,
      code: "unsupported_parameter",
      param: "tool_choice",
    });
    await expect(client.chat.completions.create({ ...ask("vacuum"), functions: [tool.function] } as never)).rejects.toMatchObject({ param: "functions" });
    const none = await client.chat.completions.create({ ...ask("How do I reclaim space with VACUUM?"), tools: [], tool_choice: "none" });
    expect(none.choices[0]!.finish_reason).toBe("stop");
  });

  it("lists models and sources", async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["agent", "provider_a", "provider_b"]);
    expect(models.data[0]).toMatchObject({ resolves_to: "extractive/docent-extractive-1", available: true });
    const sources = (await client.get("/sources")) as { data: Array<{ id: string; name: string; base_url: string; pages: number; chunks: number }> };
    const pg = sources.data.find((s) => s.id === server.sources.pg)!;
    expect(pg).toMatchObject({ name: "PostgreSQL 15 Documentation", base_url: "https://www.postgresql.org/docs/15/", pages: 3 });
    expect(pg.chunks).toBeGreaterThanOrEqual(3);
  });
});
