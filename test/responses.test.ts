import { createOpenAI } from "@ai-sdk/openai";
import { generateObject, generateText, streamText } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { FakeProviderServer } from "./support/fake-provider-server.ts";
import { pageOf, type ServerWithProviders, startServerWithProviders, type TestServer } from "./support/test-server.ts";

const QUESTION = "How do I build an index without locking writes?";
const SCHEMA = {
  type: "object",
  properties: { command: { type: "string" }, explanation: { type: "string" } },
  required: ["command", "explanation"],
  additionalProperties: false,
};
const VALID = '{"command": "CLUSTER employees USING employees_ind;", "explanation": "Reorders the table by the index [1]."}';

/** The event types of a complete Responses stream, in order (deltas and annotations collapsed). */
const SEQUENCE = [
  "response.created",
  "response.in_progress",
  "response.output_item.added",
  "response.content_part.added",
  "response.output_text.delta",
  "response.output_text.annotation.added",
  "response.output_text.done",
  "response.content_part.done",
  "response.output_item.done",
  "response.completed",
];
const collapse = (types: string[]) => types.filter((t, i) => t !== types[i - 1]);

/**
 * POST /v1/responses end to end: the real `openai` SDK and the Vercel AI
 * SDK's default `openai()` provider against the real server, the offline
 * agent, and provider_a/provider_b behind local servers speaking their protocols.
 */
describe("the Responses API", () => {
  let running: ServerWithProviders;
  let fake: FakeProviderServer;
  let server: TestServer;
  let client: OpenAI;
  beforeAll(async () => {
    running = await startServerWithProviders({ kind: "reply", text: "Use CREATE INDEX CONCURRENTLY [1]." }, { AGENT_MODEL: "extractive" });
    ({ fake, server, client } = running);
  });
  afterAll(() => running.close());

  const ask = (extra: object = {}) => ({ model: "agent", input: QUESTION, sources: [server.sources.pg], ...extra }) as any;
  const post = (body: object, headers: Record<string, string> = { authorization: `Bearer ${server.key}` }) =>
    fetch(`${server.url}/v1/responses`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const events = async (body: object) => {
    const out: any[] = [];
    for await (const event of await client.responses.create({ ...body, stream: true } as OpenAI.Responses.ResponseCreateParamsStreaming)) out.push(event);
    return out;
  };

  it("responses.create: a completed response whose output_text carries flat url_citation annotations on its markers", async () => {
    const response: any = await client.responses.create(ask({ instructions: "Be brief.", temperature: 0.2, max_output_tokens: 300 }));
    expect(response).toMatchObject({
      object: "response",
      status: "completed",
      model: "agent",
      error: null,
      incomplete_details: null,
      instructions: "Be brief.",
      temperature: 0.2,
      max_output_tokens: 300,
      store: false,
      text: { format: { type: "text" } },
      tools: [],
      tool_choice: "auto",
    });
    // The tool choice asked for is echoed, as OpenAI echoes it.
    expect((await client.responses.create(ask({ tool_choice: "none" }))).tool_choice).toBe("none");
    expect(response.id).toMatch(/^resp_/);
    expect(response.output).toHaveLength(1);
    const [item] = response.output;
    expect(item).toMatchObject({ type: "message", status: "completed", role: "assistant" });
    expect(item.id).toMatch(/^msg_/);
    const [content] = item.content;
    expect(content.type).toBe("output_text");
    expect(response.output_text).toBe(content.text);
    expect(content.text).toContain("CONCURRENTLY");

    // The same spans as chat's annotations, flat rather than nested under `url_citation`.
    const chat: any = await client.chat.completions.create({
      model: "agent",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: QUESTION },
      ],
      sources: [server.sources.pg],
    } as never);
    expect(content.text).toBe(chat.choices[0].message.content);
    expect(content.annotations).toEqual(chat.choices[0].message.annotations.map((a: any) => ({ type: "url_citation", ...a.url_citation })));
    expect(content.annotations.length).toBeGreaterThan(0);
    content.annotations.forEach((a: any, i: number) => {
      expect(Object.keys(a).sort()).toEqual(["end_index", "start_index", "title", "type", "url"]);
      expect(content.text.slice(a.start_index, a.end_index)).toMatch(new RegExp(`^\\[(\\d+, )*${i + 1}(, \\d+)*\\]$`));
    });
    expect(response.url_references).toEqual(content.annotations.map((a: any) => a.url));
    expect(pageOf(response.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-createindex.html");

    const { usage } = response;
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.output_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
    expect(usage).toMatchObject({ input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } });
  });

  it("maps instructions, developer and assistant messages, input_text parts and sampling options onto the provider call", async () => {
    fake.queue({ kind: "reply", text: "Use CLUSTER [1].", usage: { input: 50, output: 7, reasoning: 2 } });
    const response: any = await client.responses.create({
      model: "provider_a",
      instructions: "Answer in one line.",
      input: [
        { role: "developer", content: "Prefer SQL." },
        { role: "user", content: "What does CLUSTER do?" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "It reorders a table." }] },
        {
          role: "user",
          content: [
            { type: "input_text", text: "How do I physically reorder " },
            { type: "input_text", text: "a table by an index?" },
          ],
        },
      ],
      temperature: 0.3,
      top_p: 0.9,
      max_output_tokens: 64,
      sources: [server.sources.pg],
    } as any);
    const sent = fake.requests.at(-1)!.body;
    // docent's instructions and the documentation block come first; then the caller's messages in order.
    expect(sent.messages.slice(2)).toEqual([
      { role: "system", content: "Answer in one line." },
      { role: "system", content: "Prefer SQL." },
      { role: "user", content: "What does CLUSTER do?" },
      { role: "assistant", content: "It reorders a table." },
      { role: "user", content: "How do I physically reorder a table by an index?" },
    ]);
    // An OpenAI-compatible base URL gets `max_tokens` (see the provider registry).
    expect(sent).toMatchObject({ temperature: 0.3, top_p: 0.9, max_tokens: 64 });
    expect(response.output_text).toBe("Use CLUSTER [1].");
    expect(response.usage).toMatchObject({ input_tokens: 50, output_tokens: 7, total_tokens: 57, output_tokens_details: { reasoning_tokens: 2 } });
    expect(pageOf(response.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
  });

  it("answers a request shaped as Codex CLI sends it: its tools and options taken, none of them given to the model", async () => {
    fake.queue({ kind: "reply", text: "Use CREATE INDEX CONCURRENTLY [1]." });
    const shell = {
      type: "function",
      name: "shell",
      description: "Runs a shell command and returns its output.",
      strict: false,
      parameters: { type: "object", properties: { command: { type: "array", items: { type: "string" } } }, required: ["command"] },
    };
    const stream = await client.responses.create({
      model: "provider_a",
      instructions: "You are Codex, a coding agent.",
      input: [
        { type: "message", role: "developer", content: [{ type: "input_text", text: "<permissions instructions>read-only</permissions instructions>" }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context><cwd>/src</cwd></environment_context>" }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: QUESTION }] },
      ],
      tools: [
        shell,
        { type: "custom", name: "apply_patch", description: "Edits files.", format: { type: "grammar", syntax: "lark", definition: "start: /.+/" } },
        { type: "web_search" },
      ],
      tool_choice: "auto",
      parallel_tool_calls: false,
      reasoning: { effort: "medium", summary: "auto" },
      store: false,
      stream: true,
      include: ["reasoning.encrypted_content"],
      prompt_cache_key: "0a4c1e2f-codex-session",
      text: { verbosity: "medium" },
      sources: [server.sources.pg],
    } as any);
    const seen: any[] = [];
    for await (const event of stream as any) seen.push(event);
    expect(collapse(seen.map((e) => e.type))).toEqual(SEQUENCE);
    const done = seen.at(-1).response;
    expect(done).toMatchObject({ status: "completed", tools: [], tool_choice: "auto" });
    expect(done.output[0].content[0].text).toBe("Use CREATE INDEX CONCURRENTLY [1].");
    expect(done.url_references.length).toBeGreaterThan(0);
    // The model was offered no tool: it can only answer in text.
    const sent = fake.requests.at(-1)!.body;
    expect(sent.tools).toBeUndefined();
    expect(sent.tool_choice).toBeUndefined();
    expect(sent.messages.at(-1)).toEqual({ role: "user", content: QUESTION });
  });

  it("takes include_references from the URL for clients that cannot add body fields (Codex CLI's query_params); the body's own value wins", async () => {
    const ask = (query: string, body: object = {}) =>
      fetch(`${server.url}/v1/responses${query}`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "agent", input: QUESTION, sources: [server.sources.pg], ...body }),
      });
    const text = async (response: Response) => ((await response.json()) as any).output[0].content[0].text as string;
    const withRefs = await text(await ask("?include_references=true"));
    expect(withRefs).toMatch(/\n\nReferences:\n\[1\] .+: https:\/\/www\.postgresql\.org\/docs\/15\//);
    expect(await text(await ask(""))).not.toContain("References:");
    expect(await text(await ask("?include_references=true", { include_references: false }))).not.toContain("References:");
    // A JSON reply takes none from the URL (the setting is the client's, for every request): it is not refused for it.
    fake.queue({ kind: "reply", text: VALID });
    const json = await ask("?include_references=true", { model: "provider_a", text: { format: { type: "json_schema", name: "cmd", schema: SCHEMA } } });
    expect(json.status).toBe(200);
    expect(JSON.parse(await text(json))).toMatchObject({ command: expect.any(String) });
    const bad = await ask("?include_references=yes");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toMatchObject({ param: "include_references", type: "invalid_request_error" });
    // Chat completions read it the same way.
    const chat = await fetch(`${server.url}/v1/chat/completions?include_references=1`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: QUESTION }], sources: [server.sources.pg] }),
    });
    expect(((await chat.json()) as any).choices[0].message.content).toContain("\n\nReferences:\n[1] ");
  });

  it("a reply cut at max_output_tokens is incomplete, as OpenAI reports it", async () => {
    fake.queue({ kind: "reply", text: "Use CLUSTER", finish: "length" });
    const response: any = await client.responses.create(ask({ model: "provider_a", max_output_tokens: 2 }));
    fake.queue({ kind: "reply", text: "Use CLUSTER", finish: "length" });
    const streamed = await events(ask({ model: "provider_a", max_output_tokens: 2 }));
    expect(response).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    expect(response.output[0].status).toBe("incomplete");
    expect(streamed.at(-1)).toMatchObject({
      type: "response.incomplete",
      response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
    });
  });

  it("a model's refusal is a refusal part in a completed response, streamed as refusal events, and can be sent back as input", async () => {
    const refusal = "I can't help with that.";
    fake.queue({ kind: "reply", text: refusal, refusal: true });
    const whole: any = await client.responses.create(ask({ model: "provider_a" }));
    expect(whole).toMatchObject({ status: "completed", incomplete_details: null, output_text: "", url_references: [] });
    expect(whole.output[0]).toMatchObject({ status: "completed", content: [{ type: "refusal", refusal }] });

    fake.queue({ kind: "reply", text: refusal, refusal: true });
    const stream = await events(ask({ model: "provider_a" }));
    expect(collapse(stream.map((e) => e.type))).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.refusal.delta",
      "response.refusal.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(stream.map((e) => e.sequence_number)).toEqual(stream.map((_, i) => i));
    expect(stream.find((e) => e.type === "response.content_part.added").part).toEqual({ type: "refusal", refusal: "" });
    const said = stream.filter((e) => e.type === "response.refusal.delta").map((e) => e.delta);
    expect(said.join("")).toBe(refusal);
    expect(stream.find((e) => e.type === "response.refusal.done")).toMatchObject({ refusal, content_index: 0 });
    expect(stream.at(-1).response).toMatchObject({ status: "completed", output: [{ content: [{ type: "refusal", refusal }] }], url_references: [] });

    // The SDK's stream helper builds the same response from the events.
    fake.queue({ kind: "reply", text: refusal, refusal: true });
    const final: any = await client.responses.stream(ask({ model: "provider_a" })).finalResponse();
    expect(final.output[0].content).toMatchObject([{ type: "refusal", refusal }]);

    // A client replaying the conversation sends the refusal back: read as the assistant's turn.
    const next = fake.requests.length;
    await client.responses.create(
      ask({
        model: "provider_a",
        input: [{ role: "user", content: "First question?" }, whole.output[0], { role: "user", content: QUESTION }],
      }),
    );
    expect(fake.requests[next]!.body.messages.some((m: any) => m.role === "assistant" && m.content === refusal)).toBe(true);
  });

  it("stream: true gives the real event sequence, numbered, ending with the same response as responses.create", async () => {
    const whole: any = await client.responses.create(ask());
    const stream = await events(ask());
    expect(collapse(stream.map((e) => e.type))).toEqual(SEQUENCE);
    expect(stream.map((e) => e.sequence_number)).toEqual(stream.map((_, i) => i));

    const created = stream[0].response;
    const item = stream.find((e) => e.type === "response.output_item.added").item;
    expect(created).toMatchObject({ status: "in_progress", output: [], usage: null });
    expect(item).toMatchObject({ type: "message", status: "in_progress", role: "assistant", content: [] });
    for (const e of stream.filter((e) => "item_id" in e)) expect(e).toMatchObject({ item_id: item.id, output_index: 0, content_index: 0 });

    const text = stream
      .filter((e) => e.type === "response.output_text.delta")
      .map((e) => e.delta)
      .join("");
    const done = stream.find((e) => e.type === "response.output_text.done");
    const completed = stream.at(-1).response;
    expect(text).toBe(whole.output_text);
    expect(done.text).toBe(text);
    const annotations = stream.filter((e) => e.type === "response.output_text.annotation.added");
    expect(annotations.map((e) => e.annotation_index)).toEqual(annotations.map((_, i) => i));
    expect(annotations.map((e) => e.annotation)).toEqual(whole.output[0].content[0].annotations);
    expect(stream.find((e) => e.type === "response.content_part.done").part).toEqual(completed.output[0].content[0]);
    expect(stream.find((e) => e.type === "response.output_item.done").item).toEqual(completed.output[0]);
    expect(completed.id).toBe(created.id);
    expect(completed).toMatchObject({
      status: "completed",
      output: whole.output.map((o: any) => ({ ...o, id: item.id })),
      url_references: whole.url_references,
      usage: whole.usage,
    });
  });

  it("frames each event as `event: <type>` + `data: <json>`, with no [DONE]", async () => {
    const response = await post(ask({ stream: true }));
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("x-docent-model")).toBe("extractive/docent-extractive-1");
    const frames = (await response.text()).split("\n\n").filter(Boolean);
    expect(frames.length).toBeGreaterThan(SEQUENCE.length);
    for (const frame of frames) {
      const [, name, data] = /^event: (\S+)\ndata: (.*)$/s.exec(frame)!;
      expect(JSON.parse(data!).type).toBe(name);
    }
    expect(frames.at(-1)).toMatch(/^event: response\.completed\n/);
    expect(frames.join("")).not.toContain("[DONE]");
  });

  it("responses.stream: the SDK's helper sees the deltas and a final response with annotations", async () => {
    const whole: any = await client.responses.create(ask());
    const deltas: string[] = [];
    const stream = client.responses.stream(ask()).on("response.output_text.delta", (e) => deltas.push(e.delta));
    const final: any = await stream.finalResponse();
    expect(deltas.join("")).toBe(whole.output_text);
    expect(final.output[0].content[0].text).toBe(whole.output_text);
    expect(final.output[0].content[0].annotations).toEqual(whole.output[0].content[0].annotations);
    expect(final.url_references).toEqual(whole.url_references);
  });

  it("an error after the stream began ends it with response.failed carrying the error", async () => {
    fake.queue({ kind: "stream-error", text: "Use CLUSTER with", message: "upstream overloaded" });
    const stream = await events(ask({ model: "provider_a" }));
    const types = stream.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(SEQUENCE.slice(0, 4));
    expect(types).toContain("response.output_text.delta");
    expect(types).not.toContain("response.completed");
    const failed = stream.at(-1);
    expect(failed.type).toBe("response.failed");
    expect(failed.sequence_number).toBe(stream.length - 1);
    expect(failed.response.status).toBe("failed");
    expect(failed.response.id).toBe(stream[0].response.id);
    expect(failed.response.error).toEqual({ code: "provider_unreachable", message: expect.stringContaining("upstream overloaded") });
    // The text so far stays with the failed response.
    const partial = stream
      .filter((e) => e.type === "response.output_text.delta")
      .map((e) => e.delta)
      .join("");
    expect(failed.response.output[0]).toMatchObject({ status: "incomplete", content: [{ type: "output_text", text: partial }] });
  });

  it("closing the stream aborts generation", async () => {
    fake.queue({ kind: "endless", intervalMs: 10 });
    const before = fake.clientAborts;
    const controller = new AbortController();
    const stream = await client.responses.create({ ...ask({ model: "provider_a" }), stream: true } as OpenAI.Responses.ResponseCreateParamsStreaming, {
      signal: controller.signal,
    });
    let seen = 0;
    try {
      for await (const _ of stream) if (++seen === 6) controller.abort();
    } catch {}
    const deadline = Date.now() + 5000;
    while (fake.clientAborts === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(fake.clientAborts - before).toBe(1);
  });

  it("text.format json_schema takes the structured-output path through provider_a and provider_b", async () => {
    const format = { type: "json_schema", name: "sql_answer", schema: SCHEMA, strict: true };
    const question = { input: "How do I physically reorder a table according to an index?", text: { format } };
    fake.queue({ kind: "reply", text: VALID });
    const a: any = await client.responses.create(ask({ model: "provider_a", ...question }));
    expect(JSON.parse(a.output_text)).toEqual(JSON.parse(VALID));
    expect(a.text).toEqual({ format });
    expect(pageOf(a.url_references[0])).toBe("https://www.postgresql.org/docs/15/sql-cluster.html");
    expect(fake.requests.at(-1)!.body.response_format).toEqual({ type: "json_schema", json_schema: { name: "sql_answer", schema: SCHEMA, strict: true } });

    fake.queue({ kind: "reply", text: VALID });
    const stream = await events(ask({ model: "provider_b", ...question }));
    expect(fake.requests.at(-1)!.body.output_config).toEqual({ format: { type: "json_schema", schema: SCHEMA } });
    const text = stream
      .filter((e) => e.type === "response.output_text.delta")
      .map((e) => e.delta)
      .join("");
    expect(JSON.parse(text)).toEqual(JSON.parse(VALID));
    expect(stream.at(-1).type).toBe("response.completed");

    fake.queue({ kind: "reply", text: VALID });
    await client.responses.create(ask({ model: "provider_a", text: { format: { type: "json_object" } } }));
    expect(fake.requests.at(-1)!.body.response_format).toEqual({ type: "json_object" });

    const bad = await post(ask({ model: "provider_a", text: { format: { ...format, schema: { type: "objekt" } } } }));
    expect(bad.status).toBe(400);
    const { error } = (await bad.json()) as any;
    expect(error).toMatchObject({ param: "text.format", code: "invalid_schema" });
    expect(error.message).toMatch(/^text\.format\.schema is not a valid JSON Schema/);
  });

  it("docent stores nothing: previous_response_id, store: true, conversation and background are refused by name", async () => {
    for (const [param, value] of [
      ["previous_response_id", "resp_123"],
      ["store", true],
      ["conversation", "conv_1"],
      ["background", true],
    ] as const) {
      const error: any = await client.responses.create(ask({ [param]: value })).catch((e) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error.param).toBe(param);
      expect(error.code).toBe("unsupported_parameter");
      expect(error.message).toMatch(/stores no responses/);
    }
    const stored: any = await client.responses.create(ask({ store: false }));
    expect(stored.status).toBe("completed");
    expect(stored.store).toBe(false);
  });

  it("bad input is a 400 naming the parameter", async () => {
    const cases: Array<[object, string, RegExp]> = [
      [{ input: [{ role: "tool", content: "x" }] }, "input[0].role", /only the roles 'user', 'system', 'developer' and 'assistant'/],
      [
        {
          input: [
            { role: "user", content: "hi" },
            { role: "user", content: [{ type: "input_image", image_url: "https://x/y.png" }] },
          ],
        },
        "input[1].content[0].type",
        /text only/,
      ],
      [{ input: [{ type: "function_call_output", call_id: "c1", output: "42" }] }, "input[0].type", /only message items/],
      // Limits checked on the chat request are told in the Responses API's names, in the message as in `param`.
      [
        {
          input: [
            { role: "user", content: "hi" },
            { role: "user", content: "a".repeat(100_001) },
          ],
        },
        "input[1].content",
        /^Invalid 'input\[1\]\.content'/,
      ],
      [{ instructions: "a".repeat(100_001) }, "instructions", /^Invalid 'instructions'/],
      [{ input: 42 }, "input", /a string or a list/],
      [{ input: undefined }, "input", /Missing required parameter/],
      [{ input: [] }, "input", /at least one message/],
      [{ input: "   " }, "input", /'input' must contain a user message/],
      // Tools offered are taken (agents send theirs on every turn); a tool call demanded cannot be given.
      [{ tools: [{ type: "web_search" }], tool_choice: "required" }, "tool_choice", /calls no tools/],
      [{ tool_choice: { type: "function", name: "shell" } }, "tool_choice", /calls no tools/],
      [{ tools: "shell" }, "tools", /list of tools/],
      [{ tools: [{ name: "shell" }] }, "tools[0].type", /Missing required parameter/],
      [{ tools: Array.from({ length: 129 }, () => ({ type: "web_search" })) }, "tools", /at most 128 tools/],
      [{ text: { format: { type: "yaml" } } }, "text.format.type", /json_schema/],
      [{ temperature: 3 }, "temperature", /./],
      [{ max_output_tokens: 0 }, "max_output_tokens", /./],
      [{ sources: ["not-a-uuid"] }, "sources[0]", /UUID/],
      [{ model: "gpt-nonexistent" }, "model", /./],
      [{ include_references: true, model: "provider_a", text: { format: { type: "json_object" } } }, "include_references", /JSON text\.format/],
    ];
    for (const [extra, param, message] of cases) {
      const response = await post(ask(extra));
      const { error } = (await response.json()) as any;
      expect({ param, status: response.status }).toEqual({ param: error.param, status: error.param === "model" ? response.status : 400 });
      expect(error.message).toMatch(message);
      expect(error.type).toBe("invalid_request_error");
    }
  });

  it("holds input to the chat request's structural bounds: an over-long list is refused whole, before its items are read", async () => {
    const cases: Array<[object, string, string]> = [
      // 24,000 empty items: refused for their number (validating each item held the event loop for ~0.3 s a request).
      [{ input: Array.from({ length: 24_000 }, () => ({})) }, "input", "array_above_max_length"],
      [{ input: Array.from({ length: 2049 }, () => ({ role: "user", content: "x" })) }, "input", "array_above_max_length"],
      [
        { input: [{ role: "user", content: Array.from({ length: 257 }, () => ({ type: "input_text", text: "index " })) }] },
        "input[0].content",
        "array_above_max_length",
      ],
      // A refused role or item type is quoted, not echoed whole.
      [{ input: [{ role: "r".repeat(100_000), content: "x" }] }, "input[0].role", "invalid_value"],
      [{ input: [{ type: "t".repeat(100_000), role: "user", content: "x" }] }, "input[0].type", "invalid_value"],
      [{ input: [{ type: { big: "t".repeat(100_000) }, role: "user", content: "x" }] }, "input[0].type", "invalid_value"],
    ];
    for (const [extra, param, code] of cases) {
      const response = await post(ask(extra));
      const { error } = (await response.json()) as any;
      expect({ status: response.status, param: error.param, code: error.code }).toEqual({ status: 400, param, code });
      expect(error.message.length).toBeLessThan(500);
    }
  });

  it("needs a valid key: none, unknown, revoked or a GraphQL stream token get 401", async () => {
    expect((await post(ask(), {})).status).toBe(401);
    const unknown: any = await new OpenAI({ apiKey: "dk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", baseURL: `${server.url}/v1`, maxRetries: 0 }).responses
      .create(ask())
      .catch((e) => e);
    expect(unknown).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(unknown.code).toBe("invalid_api_key");
    const revoked = await server.services.keys.create("revoked");
    await server.services.keys.revoke(revoked.id);
    expect((await post(ask(), { authorization: `Bearer ${revoked.key}` })).status).toBe(401);
    // A token for graphql-sse's single-connection stream stands for a key only there.
    const token = await (await fetch(`${server.url}/graphql/stream`, { method: "PUT", headers: { authorization: `Bearer ${server.key}` } })).text();
    const withToken = await post(ask(), { authorization: `Bearer ${token}`, "x-graphql-event-stream-token": token });
    expect(withToken.status).toBe(401);
    expect(((await withToken.json()) as any).error.type).toBe("invalid_request_error");
  });

  describe("through the Vercel AI SDK's default openai() provider", () => {
    const calls: string[] = [];
    const provider = () =>
      createOpenAI({
        baseURL: `${server.url}/v1`,
        apiKey: server.key,
        // Records where the SDK sends its requests; the request itself is the SDK's own.
        fetch: (input, init) => {
          calls.push(String(input));
          return fetch(input, init);
        },
      });

    it("generateText gets the agent's answer and its pages as sources", async () => {
      const openai = provider();
      const expected: any = await client.responses.create({ model: "agent", input: QUESTION, instructions: "Be brief." });
      const result = await generateText({ model: openai("agent"), system: "Be brief.", prompt: QUESTION, maxRetries: 0 });
      expect(calls.at(-1)).toBe(`${server.url}/v1/responses`);
      expect(result.text).toBe(expected.output_text);
      expect(result.finishReason).toBe("stop");
      expect(result.usage.inputTokens).toBe(expected.usage.input_tokens);
      expect(result.sources.map((s: any) => s.url)).toEqual(expected.output[0].content[0].annotations.map((a: any) => a.url));
      expect(result.sources.length).toBeGreaterThan(0);
    });

    it("generateObject gets JSON its schema validates: the SDK's draft-07 schema is read as draft-07", async () => {
      const openai = provider();
      fake.queue({ kind: "reply", text: VALID });
      const result = await generateObject({
        model: openai("provider_a"),
        schema: z.object({ command: z.string(), explanation: z.string() }),
        prompt: "How do I physically reorder a table according to an index?",
        maxRetries: 0,
      });
      expect(calls.at(-1)).toBe(`${server.url}/v1/responses`);
      expect(result.object).toEqual(JSON.parse(VALID));
      expect(fake.requests.at(-1)!.body.response_format.json_schema.schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    });

    it("streamText streams the same text and sources", async () => {
      const openai = provider();
      const expected: any = await client.responses.create({ model: "agent", input: QUESTION });
      const result = streamText({ model: openai("agent"), prompt: QUESTION, maxRetries: 0, onError: () => {} });
      let text = "";
      for await (const delta of result.textStream) text += delta;
      expect(calls.at(-1)).toBe(`${server.url}/v1/responses`);
      expect(text).toBe(expected.output_text);
      expect(await result.finishReason).toBe("stop");
      expect((await result.sources).map((s: any) => s.url)).toEqual(expected.url_references);
    });
  });
});
