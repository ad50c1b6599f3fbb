import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listen } from "../src/listener.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/** A raw GET, so the path reaches the server exactly as written (fetch would re-encode it). */
function rawGet(base: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(base);
    http
      .get({ hostname, port, path, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      })
      .on("error", reject);
  });
}

/** A URL with broken percent-encoding is the caller's mistake: 400 in OpenAI's shape, not a logged 500. */
describe("malformed URLs", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  for (const path of ["/docs/%E0%A4%A", "/v1/models/%E0%A4%A", "/v1/sources/%ZZ", "/v1/models?x=%E0%A4%A", "/graphql/%"]) {
    it(`GET ${path} → 400 invalid_url, not logged`, async () => {
      const errors = vi.spyOn(console, "error");
      try {
        const response = await rawGet(server.url, path, { authorization: `Bearer ${server.key}` });
        expect(response.status).toBe(400);
        expect(JSON.parse(response.body)).toEqual({
          error: { message: expect.stringMatching(/percent-encod/), type: "invalid_request_error", param: null, code: "invalid_url" },
        });
        expect(errors).not.toHaveBeenCalled();
      } finally {
        errors.mockRestore();
      }
    });
  }

  it("well-formed escapes still work", async () => {
    const response = await rawGet(server.url, `/v1/sources/${encodeURIComponent(server.sources.pg)}`, { authorization: `Bearer ${server.key}` });
    expect(response.status).toBe(200);
    expect((await rawGet(server.url, "/docs/no%20such%20page.md")).status).toBe(404);
  });
});

/** What Node refuses before routing (oversized headers, broken HTTP) is answered in OpenAI's error shape, not with an empty body. */
describe("requests Node cannot parse", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const socket = net.connect(Number(port), hostname, () => socket.write(request));
      let reply = "";
      socket.setEncoding("utf8").on("data", (d) => (reply += d));
      socket.on("end", () => resolve(reply)).on("error", reject);
    });
  const parsed = (reply: string) => {
    const [head, body] = reply.split("\r\n\r\n");
    return { status: Number(head!.split(" ")[1]), body: JSON.parse(body!) };
  };

  it("a 70 KB header → 431 request_headers_too_large; broken HTTP → 400 invalid_http", async () => {
    const big = parsed(await raw(`GET /v1/models HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(70_000)}\r\n\r\n`));
    expect(big).toEqual({
      status: 431,
      body: { error: { message: expect.stringMatching(/headers/), type: "invalid_request_error", param: null, code: "request_headers_too_large" } },
    });
    const broken = parsed(await raw("NOT HTTP AT ALL\r\n\r\n"));
    expect(broken).toEqual({ status: 400, body: { error: { message: expect.any(String), type: "invalid_request_error", param: null, code: "invalid_http" } } });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("closes a connection it could not parse once the error is written, even when the client keeps its side open", async () => {
    const listener = await listen(() => new Response("ok"), { port: 0, host: "127.0.0.1" });
    const socket = net.connect({ port: listener.port, host: "127.0.0.1", allowHalfOpen: true }, () => socket.write("NOT HTTP AT ALL\r\n\r\n"));
    let reply = "";
    socket.setEncoding("utf8").on("data", (d) => (reply += d));
    await new Promise((resolve) => socket.once("end", resolve));
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    // The client never closes its side; the server's socket must be gone all the same, so stopping finds nothing open.
    const stopped = await Promise.race([listener.stop(5000).then(() => "stopped"), new Promise((r) => setTimeout(() => r("still open"), 1500))]);
    socket.destroy();
    expect(stopped).toBe("stopped");
  });
});
