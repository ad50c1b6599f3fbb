import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusesConnections } from "./support/spawn-server.ts";
import { type ServerWithProviders, startServerWithProviders } from "./support/test-server.ts";

/**
 * Stopping with a grace period, seen on the wire: a stream in flight runs to
 * its end, no new connection is accepted, and a request that still arrives on
 * an open connection finds /healthz answering 503 "draining" and the
 * connection closed after it.
 */
describe("graceful stop", () => {
  const answer = "Vacuum reclaims storage occupied by dead tuples.";
  let env: ServerWithProviders;
  beforeAll(async () => {
    env = await startServerWithProviders({ kind: "reply", text: answer, delayMs: 100 });
  });
  afterAll(() => env.close());

  it("finishes the stream, refuses new connections and answers /healthz 503 while draining", async () => {
    const { hostname, port } = new URL(env.server.url);
    const socket = net.connect(Number(port), hostname);
    let received = "";
    socket.setEncoding("utf8").on("data", (d: string) => (received += d));
    const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    const body = JSON.stringify({
      model: "provider_a",
      stream: true,
      sources: [env.server.sources.pg],
      messages: [{ role: "user", content: "How does vacuum reclaim storage?" }],
    });
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${env.server.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    while (!/"content":"\S/.test(received)) await new Promise((r) => setTimeout(r, 10));

    const stopped = env.server.close({ graceMs: 30_000 });
    expect(await refusesConnections(env.server.url)).toBe(true);
    // Pipelined on the open connection, behind the stream.
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
    await ended;
    await stopped;

    const [stream, health] = received.split(/(?=HTTP\/1\.1 )/);
    const content = stream!
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)).choices?.[0]?.delta?.content ?? "")
      .join("");
    expect(content).toBe(answer);
    expect(stream).toContain("data: [DONE]");
    expect(health).toMatch(/^HTTP\/1\.1 503/);
    expect(health).toMatch(/\r\nconnection: close\r\n/i);
    expect(health).toContain('{"status":"draining"}');
  });
});
