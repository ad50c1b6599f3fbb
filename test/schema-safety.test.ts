import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { costlySchema } from "./support/costly-schema.ts";
import type { FakeProviderServer } from "./support/fake-provider-server.ts";
import { type ServerWithProviders, startServerWithProviders, type TestServer } from "./support/test-server.ts";

/** `^(a|a)*$` against 60 a's and a '!': hours on a backtracking engine, microseconds on RE2. */
const CATASTROPHIC = "^(a|a)*$";
const REPLY = JSON.stringify({ s: `${"a".repeat(60)}!` });
const format = (schema: object) => ({ type: "json_schema", json_schema: { name: "s", schema } });

/** Caller-supplied JSON Schemas cannot hurt the server: size, depth, and regular expressions in linear time. */
describe("caller JSON Schemas", () => {
  let running: ServerWithProviders;
  let server: TestServer;
  let fake: FakeProviderServer;
  beforeAll(async () => {
    running = await startServerWithProviders({ kind: "reply", text: REPLY }, { AGENT_MODEL: "extractive" });
    ({ server, fake } = running);
  });
  afterAll(() => running.close());

  const post = (responseFormat: object, key = server.key) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "provider_a",
        messages: [{ role: "user", content: "How do I physically reorder a table according to an index?" }],
        sources: [server.sources.pg],
        response_format: responseFormat,
      }),
    });
  const error = async (response: Response) => ((await response.json()) as { error: Record<string, unknown> }).error;

  it("matches a catastrophic pattern against the model's reply in linear time (the test timeout is the failure)", async () => {
    const before = fake.requests.length;
    const response = await post(format({ type: "object", properties: { s: { type: "string", pattern: CATASTROPHIC } }, required: ["s"] }));
    // The reply does not match: it is repaired once, then refused as the model's failure.
    expect(response.status).toBe(502);
    expect(await error(response)).toMatchObject({ code: "invalid_structured_output" });
    expect(fake.requests.length).toBe(before + 2);
    expect(fake.requests.at(-1)!.body.messages.at(-1).content).toContain(`must match pattern "${CATASTROPHIC}"`);
  });

  it("applies patternProperties on the same engine", async () => {
    fake.queue({ kind: "reply", text: JSON.stringify({ [`${"a".repeat(60)}!`]: 1 }) }, { kind: "reply", text: JSON.stringify({ [`${"a".repeat(60)}!`]: 1 }) });
    const response = await post(format({ type: "object", patternProperties: { [CATASTROPHIC]: { type: "string" } }, additionalProperties: false }));
    expect(response.status).toBe(502);
  });

  it("refuses what a linear-time engine cannot run, and schemas too large or too deep, naming response_format", async () => {
    const before = fake.requests.length;
    const lookaround = await post(format({ type: "object", properties: { s: { type: "string", pattern: "(?<=a)b(?!c)" } } }));
    expect(lookaround.status).toBe(400);
    expect(await error(lookaround)).toMatchObject({ param: "response_format", code: "invalid_schema", type: "invalid_request_error" });
    expect((await error(await post(format({ properties: { s: { pattern: "(a)\\1" } } })))).message).toMatch(/linear-time/);

    const large = await post(format({ type: "object", properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`p${i}`, { type: "string" }])) }));
    expect(large.status).toBe(400);
    expect(await error(large)).toMatchObject({ param: "response_format", code: "schema_too_large" });
    let deep: object = { type: "string" };
    for (let i = 0; i < 40; i++) deep = { type: "object", properties: { a: deep } };
    const tooDeep = await post(format(deep));
    expect(tooDeep.status).toBe(400);
    expect((await error(tooDeep)).message).toMatch(/levels deep/);

    // 1.7 KB whose $defs each refer three times to the next: 3^18 checks of one value (the event loop stalled, then the heap ran out).
    const defs: Record<string, object> = { d18: { type: "string" } };
    for (let i = 0; i < 18; i++) defs[`d${i}`] = { anyOf: [0, 1, 2].map(() => ({ $ref: `#/$defs/d${i + 1}` })) };
    const started = performance.now();
    const fanOut = await post(format({ $defs: defs, $ref: "#/$defs/d0" }));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(fanOut.status).toBe(400);
    expect(await error(fanOut)).toMatchObject({ param: "response_format", code: "invalid_schema" });
    expect((await error(await post(format({ $defs: defs, $ref: "#/$defs/d0" })))).message).toMatch(/fan out too far/);

    const cycle = await post(format({ anyOf: [{ $ref: "#" }] }));
    expect(cycle.status).toBe(400);
    expect((await error(cycle)).message).toMatch(/refers to itself/);
    expect(fake.requests.length).toBe(before);
  });

  it("compiles callers' schemas off the server's thread: a schema slow to compile is refused and /healthz answers meanwhile", async () => {
    const before = fake.requests.length;
    // Each about 1 s to compile: on the server's thread, eight of them held /healthz for 6–7 s.
    const costly = Array.from({ length: 4 }, (_, i) => post(format(costlySchema(`${Date.now()}-${i}`))));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const health = performance.now() - started;
    for (const response of await Promise.all(costly)) {
      expect(response.status).toBe(400);
      expect(await error(response)).toMatchObject({
        param: "response_format",
        code: "invalid_schema",
        message: expect.stringMatching(/too costly to compile/),
      });
    }
    expect(health).toBeLessThan(500);
    expect(fake.requests.length).toBe(before);
  });

  it("takes callers in turn on the schema thread: one key's many costly schemas do not keep another key waiting behind them all", async () => {
    const other = await server.services.keys.create("patient");
    const finished: string[] = [];
    const costly = Array.from({ length: 10 }, (_, i) => post(format(costlySchema(`turn-${Date.now()}-${i}`))).then(() => finished.push(`costly${i}`)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const plain = post(format({ type: "object" }), other.key).then((response) => {
      finished.push("plain");
      return response;
    });
    expect((await plain).status).toBe(200);
    await Promise.all(costly);
    // Served in turn, each of the other key's two jobs (its schema, then its reply) waits for at most two of the first key's;
    // first come, first served, it waited for all ten.
    expect(finished.indexOf("plain")).toBeLessThanOrEqual(4);
  });
});
