import http from "node:http";
import { gzipSync } from "node:zlib";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { openApiRoutes } from "../src/http/openapi/openapi-routes.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

type Operation = { requestBody?: { content: Record<string, { schema: object }> }; responses: Record<string, { content?: Record<string, { schema: object }> }> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: object };

/**
 * GET /openapi.json is a valid OpenAPI 3.1 document that says what the live
 * routes do: every /v1 route is in it, and what the server sends (successes
 * and errors, streamed or not) matches the schemas it gives for that status.
 */
describe("the OpenAPI document", () => {
  let server: TestServer;
  let doc: Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);

  beforeAll(async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    doc = await response.json();
  });
  afterAll(async () => server?.close());

  /** Validates `body` against the schema the document gives for this operation, status and media type. */
  const conforms = (path: string, method: string, status: number, body: unknown, type = "application/json") => {
    const operation = doc.paths[path]?.[method];
    expect(operation, `${method} ${path} is documented`).toBeDefined();
    const response = operation!.responses[String(status)];
    expect(response, `${method} ${path} documents ${status}`).toBeDefined();
    const schema = response!.content?.[type]?.schema;
    expect(schema, `${method} ${path} ${status} has a ${type} schema`).toBeDefined();
    const validate = ajv.compile({ ...schema, components: doc.components });
    expect(validate(body), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
  };

  const call = async (method: string, path: string, body?: unknown, key: string | null = server.key) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(key && { authorization: `Bearer ${key}` }), ...(body !== undefined && { "content-type": "application/json" }) },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: response.status, response };
  };

  it("is valid OpenAPI 3.1, served without a key, with this server as its server, whatever Host a request names", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const validator = new Validator();
    const result = await validator.validate(doc as never);
    expect(result.valid, JSON.stringify(result.errors)).toBe(true);
    // Without PUBLIC_URL, the document's own origin (a relative server URL), not the request's Host.
    expect((doc as unknown as { servers: Array<{ url: string }> }).servers[0]!.url).toBe("/");
    const { port } = new URL(server.url);
    const forged = await new Promise<string>((resolve, reject) => {
      const request = http.get({ host: "127.0.0.1", port: Number(port), path: "/openapi.json", headers: { host: "evil.example" } }, (response) => {
        let body = "";
        response.setEncoding("utf8").on("data", (d) => (body += d));
        response.on("end", () => resolve(body));
      });
      request.on("error", reject);
    });
    expect(forged).not.toContain("evil.example");
  });

  it("names PUBLIC_URL as its server when it is set, with its path (docent behind a proxy under a prefix)", async () => {
    for (const [publicUrl, server] of [
      ["https://docs.example.com/base/", "https://docs.example.com/base"],
      ["https://docs.example.com/base", "https://docs.example.com/base"],
      ["https://docs.example.com", "https://docs.example.com"],
    ]) {
      const routes = openApiRoutes({ publicUrl });
      const body = (await (await routes.request("/openapi.json")).json()) as { servers: Array<{ url: string }> };
      expect(body.servers, publicUrl).toEqual([{ url: server }]);
    }
  });

  it("documents every /v1 route the app serves, and no route it does not", () => {
    const served = new Set(
      createApp(server.services)
        .routes.filter((r) => r.path.startsWith("/v1/") && r.method !== "ALL" && !r.path.endsWith("*"))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}").replace(/\/$/, "")}`),
    );
    const documented = new Set(
      Object.entries(doc.paths)
        .filter(([path]) => path.startsWith("/v1/"))
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`)),
    );
    expect([...documented].sort()).toEqual([...served].sort());
  });

  it("describes what the resource routes answer, and their errors", async () => {
    const ok = async (path: string, template = path) => {
      const { status, response } = await call("GET", path);
      expect(status).toBe(200);
      conforms(template, "get", 200, await response.json());
    };
    await ok("/v1/models");
    await ok("/v1/models/agent", "/v1/models/{id}");
    await ok("/v1/sources");
    await ok(`/v1/sources/${server.sources.pg}`, "/v1/sources/{id}");
    await ok("/healthz");

    for (const [path, template, key, expected] of [
      ["/v1/models", "/v1/models", null, 401],
      ["/v1/models/nope", "/v1/models/{id}", server.key, 404],
      ["/v1/sources/not-a-uuid", "/v1/sources/{id}", server.key, 404],
      ["/v1/sources/00000000-0000-4000-8000-000000000000", "/v1/sources/{id}", server.key, 404],
    ] as const) {
      const { status, response } = await call("GET", path, undefined, key);
      expect(status).toBe(expected);
      conforms(template, "get", status, await response.json());
    }
  });

  it("describes chat completions, streamed and not, and validates requests with the schema it publishes", async () => {
    const request = { model: "agent", messages: [{ role: "user", content: "How do I reclaim space with VACUUM?" }], sources: [server.sources.pg] };
    const requestSchema = ajv.compile({
      ...doc.paths["/v1/chat/completions"]!.post!.requestBody!.content["application/json"]!.schema,
      components: doc.components,
    });
    expect(requestSchema(request)).toBe(true);

    const plain = await call("POST", "/v1/chat/completions", request);
    expect(plain.status).toBe(200);
    conforms("/v1/chat/completions", "post", 200, await plain.response.json());

    const streamed = await call("POST", "/v1/chat/completions", { ...request, stream: true, stream_options: { include_usage: true } });
    const events = (await streamed.response.text()).split("\n\n").filter((e) => e.startsWith("data: ") && e !== "data: [DONE]");
    expect(events.length).toBeGreaterThan(1);
    for (const event of events) conforms("/v1/chat/completions", "post", 200, JSON.parse(event.slice(6)), "text/event-stream");

    // What the published schema refuses, the route refuses, with a documented error.
    for (const bad of [{ model: "agent" }, { ...request, sources: ["not-a-uuid"] }, { ...request, temperature: 3 }, { ...request, messages: [] }]) {
      expect(requestSchema(bad)).toBe(false);
      const { status, response } = await call("POST", "/v1/chat/completions", bad);
      expect(status).toBe(400);
      conforms("/v1/chat/completions", "post", 400, await response.json());
    }
    const unknownModel = await call("POST", "/v1/chat/completions", { ...request, model: "gpt-2" });
    expect(unknownModel.status).toBe(404);
    conforms("/v1/chat/completions", "post", 404, await unknownModel.response.json());
    const tooLarge = await call("POST", "/v1/chat/completions", JSON.stringify({ ...request, padding: "x".repeat(server.services.config.MAX_BODY_BYTES) }));
    expect(tooLarge.status).toBe(413);
    conforms("/v1/chat/completions", "post", 413, await tooLarge.response.json());
    const compressed = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", "content-encoding": "gzip" },
      body: new Blob([gzipSync(JSON.stringify(request))]),
    });
    expect(compressed.status).toBe(415);
    conforms("/v1/chat/completions", "post", 415, await compressed.json());
  });

  it("describes the Responses API's reply", async () => {
    const { status, response } = await call("POST", "/v1/responses", {
      model: "agent",
      input: "How do I reclaim space with VACUUM?",
      sources: [server.sources.pg],
    });
    expect(status).toBe(200);
    conforms("/v1/responses", "post", 200, await response.json());
    // Every streamed event, a refusal's too, is one of the documented events, each named by its type.
    const documented = JSON.stringify((doc.components as { schemas?: Record<string, unknown> } | undefined)?.schemas?.ResponseStreamEvent ?? null);
    for (const input of ["How do I reclaim space with VACUUM?", "What is the best recipe for banana bread?"]) {
      const streamed = await call("POST", "/v1/responses", { model: "agent", input, sources: [server.sources.pg], stream: true });
      const events = (await streamed.response.text()).split("\n\n").filter(Boolean);
      expect(events.length).toBeGreaterThan(8);
      for (const frame of events) {
        const [name, data] = frame.split("\n");
        const event = JSON.parse(data!.slice("data: ".length));
        expect(name).toBe(`event: ${event.type}`);
        expect(documented).toContain(`"${event.type}"`);
        conforms("/v1/responses", "post", 200, event, "text/event-stream");
      }
    }
    const refused = await call("POST", "/v1/responses", { model: "agent", input: "hi", store: true });
    expect(refused.status).toBe(400);
    conforms("/v1/responses", "post", 400, await refused.response.json());
  });

  it("describes usage and feedback", async () => {
    const asked = await call("POST", "/v1/chat/completions", {
      model: "agent",
      messages: [{ role: "user", content: "How do I reclaim space with VACUUM?" }],
      sources: [server.sources.pg],
    });
    const { id } = (await asked.response.json()) as { id: string };
    const rated = await call("POST", "/v1/feedback", { completion_id: id, rating: "down", comment: "too short" });
    expect(rated.status).toBe(200);
    conforms("/v1/feedback", "post", 200, await rated.response.json());
    const unknown = await call("POST", "/v1/feedback", { completion_id: "chatcmpl-000000000000000000000000", rating: "up" });
    expect(unknown.status).toBe(404);
    conforms("/v1/feedback", "post", 404, await unknown.response.json());
    const usage = await call("GET", "/v1/usage?since=7d");
    expect(usage.status).toBe(200);
    const body = (await usage.response.json()) as { data: unknown[] };
    expect(body.data.length).toBeGreaterThan(0);
    conforms("/v1/usage", "get", 200, body);
    const bad = await call("GET", "/v1/usage?since=yesterday-ish");
    expect(bad.status).toBe(400);
    conforms("/v1/usage", "get", 400, await bad.response.json());
  });

  it("has a reference page at /docs/api served from this server only", async () => {
    const page = await fetch(`${server.url}/docs/api`);
    expect(page.status).toBe(200);
    const html = await page.text();
    // Its own icon (none), so a browser does not ask for /favicon.ico, a 404 in its console.
    expect(html).toMatch(/<link rel="icon" href="data:,"/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((url) => !url.startsWith("data:"));
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      expect(asset.startsWith("/"), asset).toBe(true);
      expect((await fetch(`${server.url}${asset}`)).status, asset).toBe(200);
    }
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
  });
});
