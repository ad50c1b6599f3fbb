import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeProviderServer } from "./support/fake-provider-server.ts";
import { pageOf, type ServerWithProviders, startServerWithProviders } from "./support/test-server.ts";

type Reply = OpenAI.Chat.ChatCompletion & { url_references: string[] };

/**
 * RETRIEVAL_ASSIST=rewrite: a provider model first restates the question in
 * the documentation's terms, within RETRIEVAL_ASSIST_TIMEOUT_MS, and both the
 * question and the restatement are searched. Checked against a local server
 * speaking OpenAI's wire protocol.
 */
describe("retrieval assisted by a provider model's restatement", () => {
  let fake: FakeProviderServer;
  let client: OpenAI;
  let running: ServerWithProviders;
  const question = "How can I defragment storage?";
  beforeAll(async () => {
    running = await startServerWithProviders(
      { kind: "reply", text: "Run VACUUM [1]." },
      {
        AGENT_MODEL: "provider_a",
        PROVIDER_A_MODEL: "gpt-upstream",
        AGENT_SOURCE_CHOICE_TIMEOUT_MS: "0",
        RETRIEVAL_ASSIST: "rewrite",
        RETRIEVAL_ASSIST_TIMEOUT_MS: "400",
      },
    );
    ({ fake, client } = running);
  });
  afterAll(() => running.close());

  const ask = (content: string, options: { signal?: AbortSignal } = {}) =>
    client.chat.completions.create({ model: "agent", messages: [{ role: "user", content }] }, options) as unknown as Promise<Reply>;
  const vacuumPages = ["https://www.postgresql.org/docs/15/sql-vacuum.html", "https://www.sqlite.org/lang/vacuum.md"];

  it("asks the model once for a restatement and names, then searches with both", async () => {
    fake.queue(
      { kind: "reply", text: '{"query":"reclaim storage occupied by dead tuples","names":["VACUUM"]}', usage: { input: 80, output: 12 } },
      { kind: "reply", text: "Run VACUUM [1].", usage: { input: 500, output: 5 } },
    );
    const before = fake.requests.length;
    const reply = await ask(question);
    const [rewrite, answer, extra] = fake.requests.slice(before);
    expect(extra).toBeUndefined();
    expect(rewrite!.body.model).toBe("gpt-upstream");
    expect(rewrite!.body.response_format.json_schema.name).toBe("query_rewrite");
    expect(rewrite!.body.temperature).toBe(0);
    expect(rewrite!.body.messages[0].content).toMatch(/^You help search software documentation\. Restate/);
    expect(rewrite!.body.messages[1].content).toContain("- PostgreSQL 15 Documentation: The PostgreSQL relational database manual.\n");
    expect(rewrite!.body.messages[1].content).toMatch(/\n\nQuestion: How can I defragment storage\?$/);
    // The question alone is not covered (below); the restatement finds VACUUM.
    expect(vacuumPages).toContain(pageOf(reply.url_references[0]));
    expect(answer!.body.messages.map((m: { content: string }) => m.content).join("\n")).toMatch(/VACUUM/);
    expect(answer!.body.messages.at(-1).content).toBe(question);
    expect(reply.usage).toMatchObject({ prompt_tokens: 580, completion_tokens: 17 });
  });

  it("searches with the question alone when the model does not answer in time, and cancels the call", async () => {
    fake.queue({ kind: "reply", text: '{"query":"reclaim storage","names":["VACUUM"]}', delayMs: 5000 }, { kind: "reply", text: "Run CLUSTER [1]." });
    const before = fake.requests.length;
    const aborts = fake.clientAborts;
    const reply = await ask("How do I physically reorder a table according to an index?");
    expect(fake.clientAborts).toBe(aborts + 1);
    expect(fake.requests.slice(before).map((r) => r.body.response_format?.json_schema?.name ?? "answer")).toEqual(["query_rewrite", "answer"]);
    expect(pageOf(reply.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
    // Without the restatement the refusal stands.
    fake.queue({ kind: "status", status: 500 });
    expect((await ask(question)).url_references).toEqual([]);
  });
});

describe("retrieval assist when the caller goes away", () => {
  let running: ServerWithProviders;
  beforeAll(async () => {
    // A budget far past the test: only the caller's abort can end the call.
    running = await startServerWithProviders(
      { kind: "reply", text: "unused" },
      { AGENT_MODEL: "provider_a", AGENT_SOURCE_CHOICE_TIMEOUT_MS: "0", RETRIEVAL_ASSIST: "rewrite", RETRIEVAL_ASSIST_TIMEOUT_MS: "60000" },
    );
  });
  afterAll(() => running.close());

  it("stops the restatement call when the caller goes away, and calls no model after it", async () => {
    running.fake.queue({ kind: "reply", text: '{"query":"reclaim storage","names":[]}', delayMs: 30_000 });
    const { fake } = running;
    const before = fake.requests.length;
    const aborts = fake.clientAborts;
    const controller = new AbortController();
    const pending = running.client.chat.completions.create(
      { model: "agent", messages: [{ role: "user", content: "How can I defragment storage?" }] },
      { signal: controller.signal },
    );
    await expect.poll(() => fake.requests.length).toBe(before + 1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => fake.clientAborts).toBe(aborts + 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.requests.length).toBe(before + 1);
  });
});

describe("retrieval assist with the offline generator", () => {
  let running: ServerWithProviders;
  beforeAll(async () => {
    running = await startServerWithProviders({ kind: "reply", text: "unused" }, { AGENT_MODEL: "extractive", RETRIEVAL_ASSIST: "rewrite" });
  });
  afterAll(() => running.close());

  it("asks no model: the offline generator answers from the question alone", async () => {
    const reply = (await running.client.chat.completions.create({
      model: "agent",
      messages: [{ role: "user", content: "How do I physically reorder a table according to an index?" }],
    })) as Reply;
    expect(pageOf(reply.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
    expect(running.fake.requests).toEqual([]);
  });
});
