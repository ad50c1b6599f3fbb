import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/** CORS_ORIGINS, seen through real fetch preflights and requests carrying an Origin header. */
describe("CORS_ORIGINS", () => {
  const ALLOWED = "https://app.example.com";
  let server: TestServer;
  let closed: TestServer;
  beforeAll(async () => {
    [server, closed] = await Promise.all([startTestServer({ CORS_ORIGINS: `${ALLOWED}, http://localhost:3000` }), startTestServer()]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), closed?.close()]);
  });

  const preflight = (target: TestServer, path: string, origin: string) =>
    fetch(`${target.url}${path}`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });

  it("answers an allowed origin's preflight without a key, on every API door", async () => {
    for (const path of [
      "/v1/chat/completions",
      "/v1/responses",
      "/v1/sources",
      "/v1/feedback",
      "/graphql",
      "/graphql/stream",
      "/trpc/chat.completions.create",
      "/mcp",
    ]) {
      const response = await preflight(server, path, ALLOWED);
      expect(response.status, path).toBe(204);
      expect(response.headers.get("access-control-allow-origin"), path).toBe(ALLOWED);
      expect(response.headers.get("access-control-allow-methods"), path).toContain("POST");
      expect(response.headers.get("access-control-allow-headers")?.toLowerCase(), path).toContain("authorization");
      expect(response.headers.get("vary"), path).toContain("Origin");
    }
  });

  it("gives a disallowed origin no CORS grant, and a server without CORS_ORIGINS none at all", async () => {
    const other = await preflight(server, "/v1/chat/completions", "https://evil.example.com");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const none = await preflight(closed, "/v1/chat/completions", ALLOWED);
    expect(none.headers.get("access-control-allow-origin")).toBeNull();
    // GraphQL Yoga's own allow-every-origin default is off: CORS_ORIGINS decides there too.
    const graphql = await fetch(`${closed.url}/graphql`, {
      method: "POST",
      headers: { origin: "https://evil.example.com", authorization: `Bearer ${closed.key}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ models { id } }" }),
    });
    expect(graphql.status).toBe(200);
    expect(graphql.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("exposes docent's headers on answers, and grants errors too so a page can read them", async () => {
    const answer = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { origin: ALLOWED, authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "agent",
        messages: [{ role: "user", content: "How do I physically reorder a table according to an index?" }],
        stream: true,
      }),
    });
    expect(answer.status).toBe(200);
    await answer.text();
    expect(answer.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    const exposed = answer.headers
      .get("access-control-expose-headers")
      ?.toLowerCase()
      .split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(["x-docent-model", "x-docent-sources", "x-request-id", "retry-after"]));
    expect(answer.headers.get("x-docent-model")).toBe("extractive/docent-extractive-1");

    const refused = await fetch(`${server.url}/v1/sources`, { headers: { origin: "http://localhost:3000", authorization: "Bearer dk_wrong" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
  });

  it("allows any origin with *", async () => {
    const any = await startTestServer({ CORS_ORIGINS: "*" });
    try {
      const response = await preflight(any, "/v1/chat/completions", "https://anywhere.example");
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
    } finally {
      await any.close();
    }
  });
});
