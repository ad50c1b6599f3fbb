import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
});
