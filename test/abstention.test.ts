import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageOf, type ServerWithProviders, startServerWithProviders } from "./support/test-server.ts";

type Reply = OpenAI.Chat.ChatCompletion & { url_references: string[] };

/** When docent answers, when it says the sources do not cover a question, and how it meets small talk. */
describe("refusing only what the sources do not cover", () => {
  let running: ServerWithProviders;
  beforeAll(async () => {
    running = await startServerWithProviders({ kind: "reply", text: "From the docs [1]." }, { PROVIDER_B_MODEL: "claude-upstream" });
  });
  afterAll(() => running.close());

  const ask = async (content: string | Array<{ role: "user" | "assistant"; content: string }>, extra: Record<string, unknown> = {}) =>
    (await running.client.chat.completions.create({
      model: "agent",
      messages: typeof content === "string" ? [{ role: "user", content }] : content,
      ...extra,
    } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming)) as Reply;

  it("refuses a question about a product the sources never name, though its other words match", async () => {
    const agent = await ask("How do I physically reorder a MySQL table according to an index?");
    expect(agent.url_references).toEqual([]);
    expect(agent.choices[0]!.message.content).toMatch(/do not cover/);
    // The same words without the foreign name are answered.
    const plain = await ask("How do I physically reorder a table according to an index?");
    expect(pageOf(plain.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
    // Developers' jargon the pages never write (software-terms' `monorepo`) names no product: answered.
    const jargon = await ask("Every service in our monorepo shares one database: how do I physically reorder a table according to an index?");
    expect(pageOf(jargon.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
  });

  it("with one source visible, answers as if it were named, but still refuses a question about a product it never mentions", async () => {
    const { pg } = running.server.sources;
    const key = (await running.server.services.keys.create("postgres only", { sourceIds: [pg] })).key;
    const client = new OpenAI({ apiKey: key, baseURL: running.client.baseURL, maxRetries: 0 });
    const askOne = async (content: string) => (await client.chat.completions.create({ model: "agent", messages: [{ role: "user", content }] })) as Reply;
    const foreign = await askOne("How do I physically reorder a MySQL table according to an index?");
    expect(foreign.url_references).toEqual([]);
    expect(foreign.choices[0]!.message.content).toMatch(/do not cover/);
    const plain = await askOne("How do I physically reorder a table according to an index?");
    expect(pageOf(plain.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
    // Named by the caller, the source is the caller's word: answered from it.
    const named = (await client.chat.completions.create({
      model: "agent",
      messages: [{ role: "user", content: "How do I physically reorder a MySQL table according to an index?" }],
      sources: [pg],
    } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming)) as Reply;
    expect(named.url_references.length).toBeGreaterThan(0);
  });

  it("with a named source, refuses only when nothing in it is relevant", async () => {
    const { sqlite, pg } = running.server.sources;
    // Half the question's weight ("vacuum", not "defragment"): too little to pick among all sources, enough in the one named.
    expect((await ask("How do I defragment with VACUUM?")).url_references).toEqual([]);
    const named = await ask("How do I defragment with VACUUM?", { sources: [sqlite] });
    expect(pageOf(named.url_references[0])).toBe("https://www.sqlite.org/lang/vacuum.md");
    // A question named in the text counts as naming the source.
    const inText = await ask("How do I defragment a SQLite file with VACUUM?");
    expect(pageOf(inText.url_references[0])).toBe("https://www.sqlite.org/lang/vacuum.md");
    // Nothing relevant in the named source: still refused.
    const off = await ask("What is the best time of year to plant tulip bulbs?", { sources: [pg] });
    expect(off.url_references).toEqual([]);
  });

  it("answers greetings, thanks and 'what can you do?' briefly on every model path, with no references and no model call", async () => {
    const before = running.fake.requests.length;
    for (const model of ["agent", "provider_a", "provider_b"]) {
      const hello = await ask("hi", { model });
      expect(hello.choices[0]!.message.content).toBe(
        "Hello! I answer questions from the documentation in my knowledge sources (PostgreSQL 15 Documentation and SQLite Documentation) and cite the pages I draw on. What would you like to know?",
      );
      expect(hello.url_references).toEqual([]);
      expect((await ask("What can you do?", { model })).choices[0]!.message.content).toMatch(/^I'm docent\. I answer questions/);
    }
    expect(running.fake.requests.length).toBe(before);
    // Streamed too.
    const stream = await running.client.chat.completions.create({ model: "provider_a", messages: [{ role: "user", content: "Good morning!" }], stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toMatch(/^Hello! /);
    expect(running.fake.requests.length).toBe(before);
  });

  it("refuses a message with no word of the documentation's own, saying what docent answers, on every model path and with a named source", async () => {
    const before = running.fake.requests.length;
    const both = "(PostgreSQL 15 Documentation and SQLite Documentation)";
    for (const [content, extra, sources] of [
      ["how was your weekend?", {}, both],
      ["When did the Berlin Wall fall?", { model: "provider_a" }, both],
      ["hey there, hope you're doing well", { sources: [running.server.sources.sqlite] }, "(SQLite Documentation)"],
    ] as const) {
      const reply = await ask(content, extra);
      expect([content, reply.choices[0]!.message.content]).toEqual([
        content,
        `The knowledge sources available to me do not cover this question, so I cannot answer it from the documentation. I answer questions from the documentation in my knowledge sources ${sources} and cite the pages I draw on.`,
      ]);
      expect(reply.url_references).toEqual([]);
    }
    expect(running.fake.requests.length).toBe(before);
    // Words of the documentation's own ("index", "table") among everyday ones are searched as ever.
    const plain = await ask("How do I physically reorder a table according to an index?");
    expect(pageOf(plain.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
  });

  it("takes thanks after an answer as thanks, not as a follow-up question", async () => {
    const thanks = await ask([
      { role: "user", content: "How do I physically reorder a table according to an index?" },
      { role: "assistant", content: "Use CLUSTER [1]." },
      { role: "user", content: "thanks, that helped!" },
    ]);
    expect(thanks.choices[0]!.message.content).toMatch(/^You're welcome! /);
    expect(thanks.url_references).toEqual([]);
  });

  it("answers a question wrapped in a greeting and thanks", async () => {
    const reply = await ask("Hi there! How do I physically reorder a table according to an index? Thanks!");
    expect(pageOf(reply.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
  });
});
