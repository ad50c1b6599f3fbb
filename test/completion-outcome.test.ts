import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompletionOutcome } from "../src/core/completion-outcome.ts";
import { COVERAGE_BARS } from "../src/core/coverage-judge.ts";
import { graphqlRequest, trpcClient } from "./support/clients.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

const QUESTION = "How do I physically reorder a table according to an index?";
const messages = [{ role: "user" as const, content: QUESTION }];

/** Every door reports each completion's outcome, attributed to the request and key, to the registered observers. */
describe("completion outcomes", () => {
  let server: TestServer;
  let keyId: string;
  let key: string;
  const outcomes: CompletionOutcome[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    const created = await server.services.keys.create("outcomes");
    key = created.key;
    keyId = created.id;
    server.services.completionObservers.push({ onCompletion: (outcome) => void outcomes.push(outcome) });
  });
  afterAll(() => server.close());
  const last = () => outcomes.at(-1)!;

  it("REST: attributed to the key and the request id the caller sent, echoed on the response; the outcome is there when the reply is", async () => {
    const before = outcomes.length;
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-request-id": "trace-me-42" },
      body: JSON.stringify({ model: "agent", messages }),
    });
    const body = await response.json();
    expect(response.headers.get("x-request-id")).toBe("trace-me-42");
    expect(outcomes.length).toBe(before + 1);
    expect(last()).toMatchObject({
      requestId: "trace-me-42",
      interface: "rest",
      keyId,
      completionId: body.id,
      model: "agent",
      provider: "extractive",
      status: "completed",
      finishReason: "stop",
      question: QUESTION,
      answer: body.choices[0].message.content,
      sourceIds: [server.sources.pg],
      grounding: { refused: false },
    });
    expect(last().references.map((r) => r.url)).toEqual(body.url_references);
    // What is recorded is what the refusal was decided on: an answer the agent chose sources for clears the open bar.
    expect(last().grounding!.coverage).toBeGreaterThanOrEqual(COVERAGE_BARS.open);
    expect(last().grounding!.closest.length).toBeGreaterThan(0);
    expect(last().usage.completionTokens).toBe(body.usage.completion_tokens);
    expect(JSON.stringify(last())).not.toContain(key);
  });

  it("REST: an unusable request id is replaced; a streamed reply and an uncovered question are reported too", async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-request-id": "bad id\u00e9".padEnd(300, "x") },
      body: JSON.stringify({ model: "agent", stream: true, messages: [{ role: "user", content: "How many moons does Jupiter have?" }] }),
    });
    await response.text();
    const id = response.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(last()).toMatchObject({ requestId: id, status: "completed", references: [], grounding: { refused: true } });
  });

  it("Responses, GraphQL and tRPC say which door they are", async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const response = await openai.responses.create({ model: "agent", input: QUESTION });
    expect(last()).toMatchObject({ interface: "responses", keyId, question: QUESTION, status: "completed" });
    expect(response.output_text).toBe(last().answer);

    const graphql = await graphqlRequest(server.url, key, `mutation ($input: ChatCompletionInput!) { createChatCompletion(input: $input) { id } }`, {
      input: { model: "agent", messages },
    });
    expect(last()).toMatchObject({ interface: "graphql", keyId, completionId: graphql.body.data.createChatCompletion.id });

    const completion = await trpcClient(server.url, key).chat.completions.create.mutate({ model: "agent", messages });
    expect(last()).toMatchObject({ interface: "trpc", keyId, completionId: completion.id });
  });
});
