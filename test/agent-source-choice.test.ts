import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeProviderServer } from "./support/fake-provider-server.ts";
import { type ServerWithProviders, startServerWithProviders, type TestServer } from "./support/test-server.ts";

/**
 * With a provider model configured, the agent asks it to choose among sources
 * that contend for a question (both fixtures document partial indexes), within
 * AGENT_SOURCE_CHOICE_TIMEOUT_MS, and keeps the retrieval's choice otherwise.
 */
describe("the agent's source choice by a provider model", () => {
  let fake: FakeProviderServer;
  let server: TestServer;
  let client: OpenAI;
  let running: ServerWithProviders;
  const names = { "PostgreSQL 15 Documentation": "https://www.postgresql.org/", "SQLite Documentation": "https://www.sqlite.org/" } as Record<string, string>;
  beforeAll(async () => {
    running = await startServerWithProviders(
      { kind: "reply", text: "Add a WHERE clause [1]." },
      {
        AGENT_MODEL: "provider_a",
        PROVIDER_A_MODEL: "gpt-upstream",
        AGENT_SOURCE_CHOICE_TIMEOUT_MS: "1000",
      },
    );
    ({ fake, server, client } = running);
  });
  afterAll(() => running.close());

  const ask = (content: string) =>
    client.chat.completions.create({ model: "agent", messages: [{ role: "user", content }] }) as unknown as Promise<
      OpenAI.Chat.ChatCompletion & { url_references: string[] }
    >;
  /** The name listed as candidate `n` in the routing request. */
  const listed = (request: { body: any }, n: number) => new RegExp(`\\n${n}\\. (.+?) — `).exec(request.body.messages[1].content)?.[1] ?? "";

  it("follows the model's choice, even of the source the retrieval ranked second, and bills its tokens", async () => {
    fake.queue(
      { kind: "reply", text: '{"sources":[2]}', usage: { input: 100, output: 6 } },
      { kind: "reply", text: "Add a WHERE clause [1].", usage: { input: 1000, output: 20 } },
    );
    const before = fake.requests.length;
    const completion = await ask("How do I create a partial index?");
    const [routing, answer] = fake.requests.slice(before);
    expect(routing!.body.response_format.json_schema.name).toBe("source_choice");
    expect(routing!.body.messages[1].content).toContain("Question: How do I create a partial index?");
    const second = listed(routing!, 2);
    expect(Object.keys(names)).toContain(second);
    expect(Object.keys(names)).toContain(listed(routing!, 1));
    expect(completion.url_references.length).toBeGreaterThan(0);
    for (const url of completion.url_references) expect(url.startsWith(names[second]!)).toBe(true);
    expect(JSON.stringify(answer!.body.messages)).not.toContain(names[listed(routing!, 1)]!);
    expect(completion.usage).toMatchObject({ prompt_tokens: 1100, completion_tokens: 26 });
  });

  it("keeps the retrieval's choice when the model does not answer within the budget, and cancels the call", async () => {
    fake.queue({ kind: "reply", text: '{"sources":[2]}', delayMs: 5000 }, { kind: "reply", text: "Add a WHERE clause [1]." });
    const before = fake.requests.length;
    const aborts = fake.clientAborts;
    const completion = await ask("How do I create a partial index?");
    const routing = fake.requests[before]!;
    expect(fake.clientAborts).toBe(aborts + 1);
    // The retrieval's best source (listed first) answers.
    expect(completion.url_references.some((url) => url.startsWith(names[listed(routing, 1)]!))).toBe(true);
    expect(completion.choices[0]!.message.content).toBe("Add a WHERE clause [1].");
  });

  it("keeps the retrieval's choice when the reply names no candidate, still counting the call", async () => {
    fake.queue(
      { kind: "reply", text: '{"sources":[7]}', usage: { input: 100, output: 6 } },
      { kind: "reply", text: "Add a WHERE clause [1].", usage: { input: 1000, output: 20 } },
    );
    const before = fake.requests.length;
    const completion = await ask("How do I create a partial index?");
    const routing = fake.requests[before]!;
    expect(completion.url_references.some((url) => url.startsWith(names[listed(routing, 1)]!))).toBe(true);
    expect(completion.usage).toMatchObject({ prompt_tokens: 1100, completion_tokens: 26 });
  });

  it("does not ask when the question names its product or the request names its sources", async () => {
    const before = fake.requests.length;
    await ask("How do I create a partial index in SQLite?");
    await client.chat.completions.create({
      model: "agent",
      messages: [{ role: "user", content: "How do I create a partial index?" }],
      sources: [server.sources.pg],
    } as never);
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent.every((r) => r.body.response_format === undefined)).toBe(true);
  });
});
