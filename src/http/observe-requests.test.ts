import type { ServerResponse } from "node:http";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { listen } from "../listener.ts";
import { observeRequests, type RequestRecord } from "./observe-requests.ts";
import { type TraceEnv, traceRequests } from "./request-trace.ts";
import { sseResponse } from "./sse.ts";

describe("observeRequests", () => {
  it("tells of a stream whose client left while its handler still ran (Node had closed the response already)", async () => {
    const records: RequestRecord[] = [];
    const app = new Hono<TraceEnv>();
    app.use("*", traceRequests([], { onObserverError: () => {} }));
    app.use("*", observeRequests([(record) => void records.push(record)]));
    app.post("/slow", async (c) => {
      const outgoing = (c.env as { outgoing: ServerResponse }).outgoing;
      // The handler is still at work (retrieval, a fixed reply) when the client goes.
      while (!outgoing.closed) await new Promise((r) => setTimeout(r, 5));
      return sseResponse(
        (async function* () {
          yield { data: { late: true } };
        })(),
      );
    });
    const listener = await listen(app.fetch, { port: 0, host: "127.0.0.1" });
    try {
      const controller = new AbortController();
      const asked = fetch(`http://127.0.0.1:${listener.port}/slow`, { method: "POST", signal: controller.signal }).catch(() => null);
      await new Promise((r) => setTimeout(r, 50));
      controller.abort();
      await asked;
      await expect.poll(() => records.length, { timeout: 2000 }).toBe(1);
      expect(records[0]).toMatchObject({ method: "POST", status: 200 });
    } finally {
      await listener.stop(0);
    }
  });
});
