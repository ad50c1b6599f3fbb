import { getIntrospectionQuery } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStreamTokens } from "../src/auth/stream-tokens.ts";
import { DocentError } from "../src/core/errors.ts";
import { createStreamBacklogs } from "../src/graphql/stream-backlog.ts";
import { createGraphQLHandler, releaseReservation } from "../src/graphql/yoga.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/**
 * graphql-sse's single-connection mode: the reservation is made with a key,
 * and its token then stands for that key — only on /graphql/stream, and only
 * while the key is active.
 */
describe("GraphQL stream tokens", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  async function reserve(key: string) {
    const response = await fetch(`${server.url}/graphql/stream`, { method: "PUT", headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(201);
    return response.text();
  }
  /** Opens the event stream with the token, reads the status, and closes it. */
  async function openStream(token: string) {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/graphql/stream?token=${encodeURIComponent(token)}`, {
      headers: { accept: "text/event-stream" },
      signal: controller.signal,
    });
    const status = response.status;
    controller.abort();
    await response.body?.cancel().catch(() => {});
    return status;
  }
  const query = (token: string) =>
    fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-graphql-event-stream-token": token },
      body: JSON.stringify({ query: "{ sources { id } }" }),
    });

  it("is not a key anywhere else: /graphql refuses it", async () => {
    const token = await reserve(server.key);
    expect(await openStream(token)).toBe(200);
    const response = await query(token);
    expect(response.status).toBe(401);
    expect((await response.json()).errors[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  it("stops working as soon as its key is revoked", async () => {
    const created = await server.services.keys.create("short-lived");
    const token = await reserve(created.key);
    expect(await openStream(token)).toBe(200);
    await server.services.keys.revoke(created.id);
    expect(await openStream(token)).toBe(401);
    const operation = await fetch(`${server.url}/graphql/stream`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-graphql-event-stream-token": token },
      body: JSON.stringify({ query: "{ sources { id } }", extensions: { operationId: "1" } }),
    });
    expect(operation.status).toBe(401);
  });

  it("goes with its own key only: another key's Authorization cannot send operations into the stream", async () => {
    const owner = await server.services.keys.create("owner");
    const other = await server.services.keys.create("other");
    const token = await reserve(owner.key);
    const send = (authorization: string) =>
      fetch(`${server.url}/graphql/stream`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-graphql-event-stream-token": token, authorization },
        body: JSON.stringify({ query: "{ sources { id } }", extensions: { operationId: "1" } }),
      });
    expect((await send(`Bearer ${other.key}`)).status).toBe(401);
    await server.services.keys.revoke(owner.id);
    expect((await send(`Bearer ${other.key}`)).status).toBe(401);
  });

  // graphql-sse opens the single-connection stream for any request with the token that asks for events: a POST too.
  it.each(["GET", "POST"])("an open stream (opened by %s) ends within seconds of its key's revocation", async (method) => {
    const created = await server.services.keys.create("streaming");
    const token = await reserve(created.key);
    const response = await fetch(`${server.url}/graphql/stream?token=${encodeURIComponent(token)}`, {
      method,
      headers: { accept: "text/event-stream", ...(method === "POST" ? { "content-type": "application/json" } : {}) },
      ...(method === "POST" ? { body: "{}" } : {}),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return performance.now();
    })();
    const revoked = performance.now();
    await server.services.keys.revoke(created.id);
    const timeout = new Promise<"open">((resolve) => setTimeout(() => resolve("open"), 5_000).unref());
    const end = await Promise.race([ended, timeout]);
    expect(end).not.toBe("open");
    expect((end as number) - revoked).toBeLessThan(3_000);
  });

  it("refuses a token it never issued; sent beside a valid key, the stream is not found (a restart lost it), not the key refused", async () => {
    expect(await openStream("made-up-token")).toBe(401);
    const withKey = await fetch(`${server.url}/graphql/stream`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-graphql-event-stream-token": "made-up-token", authorization: `Bearer ${server.key}` },
      body: JSON.stringify({ query: "{ sources { id } }", extensions: { operationId: "1" } }),
    });
    expect(withKey.status).toBe(404);
  });

  const sendInto = (token: string, query: string, operationId: string) =>
    fetch(`${server.url}/graphql/stream`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-graphql-event-stream-token": token },
      body: JSON.stringify({ query, extensions: { operationId } }),
    });

  it("takes operations only into an open stream: a reserved one would keep their results until it opens, without bound", async () => {
    const token = await reserve(server.key);
    const early = await sendInto(token, "{ sources { id } }", "1");
    expect(early.status).toBe(409);
    expect((await early.json()).errors[0].extensions.code).toBe("CONFLICT");
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/graphql/stream?token=${encodeURIComponent(token)}`, {
      headers: { accept: "text/event-stream" },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect((await sendInto(token, "{ sources { id } }", "2")).status).toBe(202);
    const reader = stream.body!.getReader();
    let text = "";
    while (!text.includes('"id":"2"')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain("sources");
    controller.abort();
  });

  it("closes an open stream whose reader has fallen far behind, so unread results cannot pile up in memory", async () => {
    const token = await reserve(server.key);
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/graphql/stream?token=${encodeURIComponent(token)}`, {
      headers: { accept: "text/event-stream" },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    // Never read: each introspection result is about 100 KB; the stream may fall 16 MB behind (plus what sockets buffer).
    let sent = 0;
    let status = 202;
    while (status === 202 && sent < 800) status = (await sendInto(token, getIntrospectionQuery(), String(sent++))).status;
    expect(status).toBe(409);
    expect(sent).toBeGreaterThan(100);
    controller.abort();
  }, 60_000);

  it("answers a reservation with a new token, never the one it brings: graphql-sse's client sends its last one again", async () => {
    // A client reconnecting after a restart, or once its token lapsed, sends the old token beside its key.
    for (const stale of ["made-up-token", await reserve(server.key)]) {
      const again = await fetch(`${server.url}/graphql/stream`, {
        method: "PUT",
        headers: { authorization: `Bearer ${server.key}`, "x-graphql-event-stream-token": stale },
      });
      expect(again.status).toBe(201);
      const fresh = await again.text();
      expect(fresh).not.toBe(stale);
      expect(await openStream(fresh)).toBe(200);
    }
  });

  it("lets graphql-sse's reservation go when a key's tokens past its share are given up unopened", async () => {
    const created = await server.services.keys.create("reserver");
    const auth = { authorization: `Bearer ${created.key}` };
    const cancel = (token: string) =>
      fetch(`${server.url}/graphql/stream?operationId=none`, { method: "DELETE", headers: { ...auth, "x-graphql-event-stream-token": token } });
    const first = await reserve(created.key);
    // Reserved: graphql-sse knows its stream (cancelling an operation in it answers 200).
    expect((await cancel(first)).status).toBe(200);
    for (let i = 0; i < 32; i++) await reserve(created.key);
    // The key's 33rd reservation gave up its first token, and graphql-sse's stream with it.
    await expect.poll(async () => (await cancel(first)).status).toBe(404);
  });

  it("lets a reservation go in graphql-sse when its token is given up unopened", async () => {
    const graphql = createGraphQLHandler(server.services, createStreamTokens(), createStreamBacklogs());
    const refused = { error: new DocentError("UNAUTHORIZED", "not used") };
    const put = (headers: Record<string, string>) => graphql(new Request("http://localhost/graphql/stream", { method: "PUT", headers }), refused);
    const token = await (await put({ authorization: `Bearer ${server.key}` })).text();
    const cancel = () =>
      graphql(
        new Request("http://localhost/graphql/stream?operationId=none", { method: "DELETE", headers: { "x-graphql-event-stream-token": token } }),
        refused,
      );
    // Reserved: graphql-sse knows its stream.
    expect((await cancel()).status).toBe(200);
    await releaseReservation(graphql, token);
    // Let go: no such stream any more.
    expect((await cancel()).status).toBe(404);
  });
});
