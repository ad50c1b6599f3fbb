import { Hono } from "hono";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toDocentError } from "../src/core/errors.ts";
import { errorResponse } from "../src/http/error-response.ts";
import { metricsRoute } from "../src/http/metrics-route.ts";
import { graphqlRequest } from "./support/clients.ts";
import { parseMetrics } from "./support/prometheus.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

const TOKEN = "metrics-token-0123456789abcdef";
const QUESTION = "How do I physically reorder a table according to an index?";

describe("GET /metrics without METRICS_TOKEN", () => {
  it("is served to this machine only: the metrics name every source, which no caller elsewhere may list", async () => {
    const registry = new Registry();
    const app = new Hono().get("/metrics", metricsRoute(registry, undefined));
    app.onError((error) => errorResponse(toDocentError(error)));
    const from = (remoteAddress: string) => app.request("/metrics", {}, { incoming: { socket: { remoteAddress } } });
    for (const local of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) expect((await from(local)).status).toBe(200);
    // A web page whose name was rebound to 127.0.0.1 (DNS rebinding) comes from this machine, but names its own host.
    const rebound = await app.request("http://rebind.example:8787/metrics", {}, { incoming: { socket: { remoteAddress: "127.0.0.1" } } });
    expect(rebound.status).toBe(403);
    expect((await app.request("http://localhost.rebind.example/metrics", {}, { incoming: { socket: { remoteAddress: "127.0.0.1" } } })).status).toBe(403);
    // Names that resolve to this machine by definition (RFC 6761): `localhost`, written with its root dot too, and any name under it.
    for (const name of ["localhost:8787", "localhost.:8787", "grafana.localhost:8787", "127.0.0.1:8787", "[::1]:8787"])
      expect((await app.request(`http://${name}/metrics`, {}, { incoming: { socket: { remoteAddress: "127.0.0.1" } } })).status).toBe(200);
    const named = new Hono().get("/metrics", metricsRoute(registry, undefined, { publicUrl: "http://docs.internal:8787/" }));
    expect((await named.request("http://docs.internal:8787/metrics", {}, { incoming: { socket: { remoteAddress: "127.0.0.1" } } })).status).toBe(200);
    // Through a reverse proxy on this machine: loopback, but forwarded for someone else.
    const proxied = await app.request("/metrics", { headers: { "x-forwarded-for": "203.0.113.7" } }, { incoming: { socket: { remoteAddress: "127.0.0.1" } } });
    expect(proxied.status).toBe(403);
    for (const remote of ["10.0.0.5", "::ffff:192.168.1.9", "2001:db8::1"]) {
      const response = await from(remote);
      expect(response.status).toBe(403);
      expect(((await response.json()) as any).error).toMatchObject({ code: "metrics_local_only", type: "invalid_request_error" });
    }
    // Listening beyond this machine, a proxy on it could pass anyone on unmarked: only a token opens it.
    const open = new Hono().get("/metrics", metricsRoute(registry, undefined, { host: "0.0.0.0" }));
    open.onError((error) => errorResponse(toDocentError(error)));
    expect((await open.request("/metrics", {}, { incoming: { socket: { remoteAddress: "127.0.0.1" } } })).status).toBe(403);
    // With a token, the token decides, wherever the caller is.
    const withToken = new Hono().get("/metrics", metricsRoute(registry, TOKEN));
    const remote = await withToken.request(
      "/metrics",
      { headers: { authorization: `Bearer ${TOKEN}` } },
      { incoming: { socket: { remoteAddress: "10.0.0.5" } } },
    );
    expect(remote.status).toBe(200);
  });
});

describe("GET /metrics", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: "20" });
  });
  afterAll(() => server.close());

  const scrape = async () => {
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return { text: await response.clone().text(), ...parseMetrics(await response.text()) };
  };
  const ask = (content: string, key = server.key) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content }] }),
    });

  it("needs METRICS_TOKEN when it is set; an API key does not open it", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.key}` } })).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it("counts requests, tokens, refusals and latencies as requests are served", async () => {
    const before = await scrape();
    const answered = await (await ask(QUESTION)).json();
    await (await ask("How many moons does Jupiter have?")).json();
    await graphqlRequest(server.url, server.key, "{ sources { id } }");
    await fetch(`${server.url}/v1/sources/${server.sources.pg}`, { headers: { authorization: `Bearer ${server.key}` } });
    const after = await scrape();

    const chat = { route: "/v1/chat/completions", interface: "rest", status: "200", model: "agent" };
    expect(after.value("docent_http_requests_total", chat) - before.value("docent_http_requests_total", chat)).toBe(2);
    expect(after.count("docent_http_request_duration_seconds", chat) - before.count("docent_http_request_duration_seconds", chat)).toBe(2);
    expect(
      after.value("docent_http_requests_total", { route: "/graphql", interface: "graphql", status: "200", model: "none" }) -
        before.value("docent_http_requests_total", { route: "/graphql", interface: "graphql" }),
    ).toBe(1);
    expect(after.value("docent_http_requests_total", { route: "/v1/sources/:id" })).toBe(1);

    expect(after.value("docent_refusals_total", { model: "agent", interface: "rest" }) - before.value("docent_refusals_total")).toBe(1);
    expect(
      after.value("docent_completions_total", { model: "agent", status: "completed", refused: "false" }) -
        before.value("docent_completions_total", { refused: "false" }),
    ).toBe(1);
    const tokensIn = after.value("docent_tokens_total", { model: "agent", direction: "in" }) - before.value("docent_tokens_total", { direction: "in" });
    const tokensOut = after.value("docent_tokens_total", { model: "agent", direction: "out" }) - before.value("docent_tokens_total", { direction: "out" });
    expect(tokensIn).toBeGreaterThanOrEqual(answered.usage.prompt_tokens);
    expect(tokensOut).toBeGreaterThanOrEqual(answered.usage.completion_tokens);
    expect(after.count("docent_retrieval_duration_seconds") - before.count("docent_retrieval_duration_seconds")).toBe(2);
    expect(after.count("docent_time_to_first_token_seconds", { model: "agent" }) - before.count("docent_time_to_first_token_seconds")).toBe(2);
    // The refusal's fixed reply called no provider.
    expect(after.count("docent_provider_duration_seconds", { provider: "extractive" }) - before.count("docent_provider_duration_seconds")).toBe(1);
  });

  it("counts rate-limit rejections", async () => {
    const other = await server.services.keys.create("limited");
    const before = await scrape();
    let refused = 0;
    for (let i = 0; i < 21; i++) {
      const response = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${other.key}` } });
      await response.text();
      if (response.status === 429) refused++;
    }
    expect(refused).toBe(1);
    const after = await scrape();
    expect(after.value("docent_rate_limit_rejections_total", { interface: "rest" }) - before.value("docent_rate_limit_rejections_total")).toBe(1);
    expect(after.value("docent_http_requests_total", { route: "/v1/*", status: "429" })).toBe(1);
  });

  it("reports source sizes and process metrics, with bounded labels and no secrets", async () => {
    const { text, value, family } = await scrape();
    const pg = await server.services.catalog.get(server.sources.pg);
    expect(value("docent_source_pages", { source_id: server.sources.pg })).toBe(pg!.pages);
    expect(value("docent_source_chunks", { source_id: server.sources.pg, source: "PostgreSQL 15 Documentation" })).toBe(pg!.chunks);
    expect(family("process_cpu_user_seconds_total")?.type).toBe("COUNTER");
    expect(family("nodejs_eventloop_lag_seconds")).toBeDefined();
    const routes = new Set(family("docent_http_requests_total")!.metrics.map((s) => s.labels!.route));
    for (const route of routes) expect(route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
    expect(text).not.toContain(server.key);
    expect(text).not.toContain("physically");
  });
});
