import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceDocument } from "../src/ingest/list-documents.ts";
import { runSync } from "../src/sync/run-sync.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/** What a failed sync records for callers (`GET /v1/sources`'s `last_sync`): docent's own words, never an internal error's. */
describe("a failed sync's summary", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("says an unexpected failure happened, without the runtime's or a database's own message", async () => {
    const source = (await server.services.catalog.get(server.sources.pg))!;
    const failing = () =>
      (async function* (): AsyncGenerator<SourceDocument> {
        // Fails before its first document, as a sync that runs out of memory on its first page does.
        yield* [];
        throw new RangeError("Invalid string length at /srv/docent/data/index.db");
      })();
    const run = await runSync(
      server.services,
      { id: source.id, name: source.name, baseUrl: source.baseUrl, description: source.description, origin: "https://docs.example/" },
      {
        trigger: "manual",
        holder: "test",
        documents: failing,
      },
    );
    expect(run.summary.status).toBe("failed");
    expect(run.summary.error).toEqual({ code: "sync_failed", message: "The sync failed unexpectedly; the server's log has the details." });
    const listed = await (await fetch(`${server.url}/v1/sources/${source.id}`, { headers: { authorization: `Bearer ${server.key}` } })).json();
    expect(JSON.stringify(listed.last_sync)).not.toMatch(/Invalid string length|\/srv\//);
    expect(run.recorded).toBe(true);
  });

  it("says when its summary could not be recorded (the schedule then keeps its retry pause)", async () => {
    const source = (await server.services.catalog.get(server.sources.pg))!;
    const catalog = { ...server.services.catalog, recordSync: async () => Promise.reject(new Error("database unavailable")) };
    const run = await runSync(
      { ...server.services, catalog },
      { id: source.id, name: source.name, baseUrl: source.baseUrl, description: source.description, origin: "https://docs.example/" },
      {
        trigger: "manual",
        holder: "test",
        documents: () =>
          (async function* (): AsyncGenerator<SourceDocument> {
            yield* [];
            throw new Error("the site went away");
          })(),
      },
    );
    expect(run).toMatchObject({ recorded: false, summary: { status: "failed" } });
  });
});
