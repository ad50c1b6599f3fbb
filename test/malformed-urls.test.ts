import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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
