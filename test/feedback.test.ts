import { TRPCClientError } from "@trpc/client";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlRequest, trpcClient } from "./support/clients.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

const QUESTION = "How do I physically reorder a table according to an index?";
const messages = [{ role: "user" as const, content: QUESTION }];
const FEEDBACK = `mutation ($input: FeedbackInput!) { submitFeedback(input: $input) { object completionId rating comment createdAt } }`;

/** Feedback on answers docent served, through every door, checked against what was served to the key. */
describe("feedback", () => {
  let server: TestServer;
  let other: { id: string; key: string };
  const feedback = (key: string, body: unknown) =>
    fetch(`${server.url}/v1/feedback`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const stored = async (id: string) => {
    await server.services.usage.ledger.flush();
    return (await server.services.usage.served.list({ since: new Date(0) })).find((c) => c.id === id);
  };
  const ask = (key = server.key) =>
    new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: "agent", messages });

  beforeAll(async () => {
    // Nothing is written by the timer during the test: feedback must find a completion that is still only in memory.
    server = await startTestServer({ USAGE_FLUSH_MS: "3600000" });
    other = await server.services.keys.create("other");
  });
  afterAll(() => server.close());

  it("REST: rates a completion just served to the key; a later rating replaces it; without question storage only ids, references and ratings are kept", async () => {
    const completion = await ask();
    const response = await feedback(server.key, { completion_id: completion.id, rating: "down", comment: "  It should mention CLUSTER's lock.  " });
    expect(response.status).toBe(200);
    const body = await response.json();
    // A comment is a reader's own words, kept only with question storage: the answer says what was kept.
    expect(body).toEqual({
      object: "feedback",
      completion_id: completion.id,
      rating: "down",
      comment: null,
      created_at: expect.any(Number),
    });
    expect(await stored(completion.id)).toMatchObject({
      rating: "down",
      comment: null,
      question: null,
      answer: null,
      refused: false,
      model: "agent",
    });
    expect((await stored(completion.id))!.references.map((r) => r.url)).toEqual((completion as unknown as { url_references: string[] }).url_references);

    expect((await feedback(server.key, { completion_id: completion.id, rating: "up" })).status).toBe(200);
    expect(await stored(completion.id)).toMatchObject({ rating: "up", comment: null });
  });

  it("REST: another key's completion is as unknown as a made-up id (404), in OpenAI's error shape", async () => {
    const mine = await ask();
    const theirs = await ask(other.key);
    for (const id of [theirs.id, "chatcmpl-0000", "resp_0000"]) {
      const response = await feedback(server.key, { completion_id: id, rating: "down" });
      expect(response.status, id).toBe(404);
      expect(await response.json()).toEqual({
        error: {
          message: `No completion with id '${id}' was served to this API key.`,
          type: "invalid_request_error",
          param: "completion_id",
          code: "completion_not_found",
        },
      });
    }
    expect((await stored(theirs.id))!.rating).toBeNull();
    expect((await feedback(other.key, { completion_id: mine.id, rating: "down" })).status).toBe(404);
    expect((await feedback(other.key, { completion_id: theirs.id, rating: "down" })).status).toBe(200);
  });

  it("REST: refuses bad bodies naming the field", async () => {
    const { id } = await ask();
    const cases: Array<[unknown, string | null, string]> = [
      [{ completion_id: id, rating: "meh" }, "rating", "invalid_value"],
      [{ completion_id: id }, "rating", "invalid_value"],
      [{ rating: "up" }, "completion_id", "missing_required_parameter"],
      [{ completion_id: id, rating: "up", comment: "x".repeat(2001) }, "comment", "string_above_max_length"],
      [{ completion_id: id, rating: "up", stars: 5 }, null, "invalid_value"],
      ["{not json", null, "invalid_json"],
      [[1], null, "invalid_json"],
    ];
    for (const [body, param, code] of cases) {
      const response = await feedback(server.key, body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect((await response.json()).error, JSON.stringify(body).slice(0, 60)).toMatchObject({ type: "invalid_request_error", param, code });
    }
    expect((await fetch(`${server.url}/v1/feedback`, { method: "POST", body: "{}" })).status).toBe(401);
    expect((await stored(id))!.rating).toBeNull();
  });

  it("a streamed completion's id and a Responses API response's id can be rated as soon as the reply has ended", async () => {
    const client = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    let streamedId = "";
    for await (const chunk of await client.chat.completions.create({ model: "agent", messages, stream: true })) streamedId = chunk.id;
    expect((await feedback(server.key, { completion_id: streamedId, rating: "down" })).status).toBe(200);

    const response = await client.responses.create({ model: "agent", input: QUESTION });
    expect(response.id).toMatch(/^resp_[0-9a-f]{24}$/);
    const rated = await feedback(server.key, { completion_id: response.id, rating: "down", comment: "too short" });
    expect(rated.status).toBe(200);
    expect(await rated.json()).toMatchObject({ completion_id: response.id, rating: "down" });
    expect(await stored(response.id.replace(/^resp_/, "chatcmpl-"))).toMatchObject({ interface: "responses", rating: "down", comment: null });
  });

  it("GraphQL submitFeedback and tRPC feedback.submit call the same function", async () => {
    const graphqlCompletion = await graphqlRequest(
      server.url,
      server.key,
      `mutation ($input: ChatCompletionInput!) { createChatCompletion(input: $input) { id } }`,
      { input: { model: "agent", messages } },
    );
    const id = graphqlCompletion.body.data.createChatCompletion.id;
    const rated = await graphqlRequest(server.url, server.key, FEEDBACK, { input: { completionId: id, rating: "down", comment: "wrong page" } });
    expect(rated.body).toEqual({
      data: { submitFeedback: { object: "feedback", completionId: id, rating: "down", comment: null, createdAt: expect.any(Number) } },
    });
    expect(await stored(id)).toMatchObject({ interface: "graphql", rating: "down" });
    const unknown = await graphqlRequest(server.url, other.key, FEEDBACK, { input: { completionId: id, rating: "up" } });
    expect(unknown.body.errors?.[0]).toMatchObject({
      message: `No completion with id '${id}' was served to this API key.`,
      extensions: { code: "NOT_FOUND", param: "completion_id" },
    });
    const tooLong = await graphqlRequest(server.url, server.key, FEEDBACK, { input: { completionId: id, rating: "up", comment: "x".repeat(2001) } });
    expect(tooLong.body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", param: "comment" });

    const trpc = trpcClient(server.url, server.key);
    const completion = await trpc.chat.completions.create.mutate({ model: "agent", messages });
    expect(await trpc.feedback.submit.mutate({ completion_id: completion.id, rating: "up" })).toMatchObject({
      object: "feedback",
      completion_id: completion.id,
      rating: "up",
      comment: null,
    });
    expect(await stored(completion.id)).toMatchObject({ interface: "trpc", rating: "up" });
    const refused = await trpcClient(server.url, other.key)
      .feedback.submit.mutate({ completion_id: completion.id, rating: "down" })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect(refused.data).toMatchObject({ code: "NOT_FOUND" });
  });
});

/** With STORE_QUESTIONS=1 the question and answer are kept with the rating, and cleared after QUESTION_RETENTION_DAYS. */
describe("feedback with question storage", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STORE_QUESTIONS: "1", QUESTION_RETENTION_DAYS: "2", SERVED_RETENTION_DAYS: "10" });
  });
  afterAll(() => server.close());

  it("stores question, answer, references and model; clears text older than the retention", async () => {
    const completion = await new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 }).chat.completions.create({
      model: "agent",
      messages,
    });
    const response = await fetch(`${server.url}/v1/feedback`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ completion_id: completion.id, rating: "down", comment: "missing the lock level" }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ rating: "down", comment: "missing the lock level" });
    const served = server.services.usage.served;
    expect((await served.list({ since: new Date(0) }))[0]).toMatchObject({
      id: completion.id,
      question: QUESTION,
      answer: completion.choices[0]!.message.content,
      model: "agent",
      servedBy: "extractive/docent-extractive-1",
      rating: "down",
      comment: "missing the lock level",
    });

    const day = 86_400_000;
    const old = { ...(await served.list({ since: new Date(0) }))[0]!, id: "chatcmpl-old", createdAt: new Date(Date.now() - 3 * day) };
    const recent = { ...old, id: "chatcmpl-recent", createdAt: new Date(Date.now() - 1 * day) };
    await served.add([old, recent]);
    expect(await server.services.usage.forgetOldText()).toBe(1);
    const after = new Map((await served.list({ since: new Date(0) })).map((c) => [c.id, c]));
    expect(after.get("chatcmpl-old")).toMatchObject({ question: null, answer: null, comment: null });
    expect(after.get("chatcmpl-recent")).toMatchObject({ question: QUESTION });
    expect(after.get(completion.id)).toMatchObject({ question: QUESTION, rating: "down" });
  });

  it("stores a question and a comment holding a lone UTF-16 surrogate, and usage and feedback keep working for every key", async () => {
    const client = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    // JSON may carry "\ud800" (a lone surrogate), UTF-8 and so the database may not.
    const completion = await client.chat.completions.create({ model: "agent", messages: [{ role: "user", content: `${QUESTION} \ud800\u0000` }] });
    const other = (await server.services.keys.create("other")).key;
    const headers = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
    expect((await fetch(`${server.url}/v1/usage?since=1d`, { headers: headers(other) })).status).toBe(200);
    expect((await fetch(`${server.url}/v1/usage?since=1d`, { headers: headers(server.key) })).status).toBe(200);
    const rated = await fetch(`${server.url}/v1/feedback`, {
      method: "POST",
      headers: headers(server.key),
      body: JSON.stringify({ completion_id: completion.id, rating: "up", comment: "a\ud800b" }),
    });
    expect(rated.status).toBe(200);
    const stored = (await server.services.usage.served.list({ since: new Date(0) })).find((c) => c.id === completion.id)!;
    // NUL too: SQLite keeps it, PostgreSQL refuses it in text.
    expect(stored).toMatchObject({ question: `${QUESTION} \ufffd\ufffd`, comment: "a\ufffdb", rating: "up" });
  });

  it("deletes served completions older than SERVED_RETENTION_DAYS; feedback on one then finds nothing", async () => {
    const served = server.services.usage.served;
    const [any] = await served.list({ since: new Date(0) });
    await served.add([{ ...any!, id: "chatcmpl-ancient", createdAt: new Date(Date.now() - 11 * 86_400_000) }]);
    expect(await server.services.usage.forgetOldServed()).toBe(1);
    const ids = (await served.list({ since: new Date(0) })).map((c) => c.id);
    expect(ids).not.toContain("chatcmpl-ancient");
    expect(ids.length).toBeGreaterThan(0);
    const response = await fetch(`${server.url}/v1/feedback`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ completion_id: "chatcmpl-ancient", rating: "down" }),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("completion_not_found");
  });
});
