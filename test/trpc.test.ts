import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trpcClient } from "./support/clients.ts";
import { pageOf, startTestServer, type TestServer } from "./support/test-server.ts";

/** tRPC at /trpc with @trpc/client: httpBatchLink and httpSubscriptionLink. */
describe("tRPC", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  const input = () => ({ model: "agent", messages: [{ role: "user" as const, content: "What does VACUUM do?" }], sources: [server.sources.sqlite] });

  it("lists sources and models, and gets one source", async () => {
    const client = trpcClient(server.url, server.key);
    const [sources, models, one] = await Promise.all([
      client.sources.list.query(),
      client.models.list.query(),
      client.sources.get.query({ id: server.sources.pg }),
    ]);
    expect(sources).toHaveLength(2);
    expect(models.map((m) => m.id)).toEqual(["agent", "provider_a", "provider_b"]);
    expect(one.name).toBe("PostgreSQL 15 Documentation");
  });

  it("creates a completion typed as the spec's object", async () => {
    const completion = await trpcClient(server.url, server.key).chat.completions.create.mutate(input());
    expect(completion.object).toBe("chat.completion");
    expect(pageOf(completion.url_references[0])).toBe("https://www.sqlite.org/lang/vacuum.md");
    expect(completion.choices[0]!.message.content).toMatch(/VACUUM/);
  });

  it("streams one chunk per item over SSE", async () => {
    const client = trpcClient(server.url, server.key);
    const chunks: any[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = client.chat.completions.stream.subscribe(input(), {
        onData: (chunk) => chunks.push(chunk),
        onError: reject,
        onComplete: () => {
          sub.unsubscribe();
          resolve();
        },
      });
    });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks[0].object).toBe("chat.completion.chunk");
    expect(chunks.filter((c) => c.choices[0]?.finish_reason === "stop")).toHaveLength(1);
  });

  it("rejects a wrong key with UNAUTHORIZED and bad input with REST's message", async () => {
    const wrong = trpcClient(server.url, "dk_wrong");
    const error = await wrong.models.list.query().catch((e) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(error.data).toMatchObject({ code: "UNAUTHORIZED", httpStatus: 401 });

    const client = trpcClient(server.url, server.key);
    const bad = await client.chat.completions.create.mutate({ ...input(), messages: [{ role: "tool" as never, content: "x" }] }).catch((e) => e);
    expect(bad.data).toMatchObject({ code: "BAD_REQUEST", param: "messages[0].role" });
    expect(bad.message).toMatch(/only the roles 'user', 'system' and 'assistant'/);
    const unknown = await client.chat.completions.create.mutate({ ...input(), sources: ["00000000-0000-4000-8000-000000000000"] }).catch((e) => e);
    expect(unknown.data).toMatchObject({ code: "NOT_FOUND", httpStatus: 404, param: "sources[0]" });
    // A misspelt sources is refused as REST refuses it, not dropped (the agent would answer from any source).
    const misspelt = await client.chat.completions.create.mutate({ ...input(), source: [server.sources.pg] } as never).catch((e) => e);
    expect(misspelt.data).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, param: "source" });
    expect(misspelt.message).toMatch(/did you mean 'sources'/);

    // A body that is no object at all (empty, null, a list) is said as REST says it, not "Missing required parameter: 'null'".
    for (const body of ["", "null", "[]", "5"]) {
      const response = await fetch(`${server.url}/trpc/chat.completions.create`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
        body,
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toBe("The request body must be a JSON object.");
    }
    // Not JSON: said plainly, never with the parser's message quoting the bytes it met.
    for (const [path, init] of [
      ["/trpc/chat.completions.create", { method: "POST", body: "\u001f\u008b\bxyz" }],
      ["/trpc/sources.get?input=%7B", {}],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" } });
      expect(response.status).toBe(400);
      const { error } = await response.json();
      expect(error.data).toMatchObject({ code: "BAD_REQUEST", reason: "invalid_json" });
      expect(error.message).toBe("The request body or `input` is not valid JSON.");
    }
  });
});
