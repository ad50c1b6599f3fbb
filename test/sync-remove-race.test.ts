import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeSource } from "../src/ingest/ingest-documents.ts";
import type { SourceDocument } from "../src/ingest/list-documents.ts";
import { runSync } from "../src/sync/run-sync.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

const doc = (name: string, text: string): SourceDocument => ({
  relPath: name,
  read: async () => Buffer.from(`# ${name}\n\n${text}\n`),
});

/** A source removed while a sync of it is under way or due: removed it stays, and the sync says so. */
describe("removing a source and syncing it", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const add = async (name: string) => {
    const run = await runSync(
      server.services,
      { id: null, name, baseUrl: "https://race.example/", origin: "https://race.example/" },
      { trigger: "add", holder: "test", documents: () => [doc("a.md", `The ${name} frobnicator controls zorbling.`)] },
    );
    return run.result!.source;
  };

  it("does not bring back a source removed after the sync's list was read (sync --all, the schedule)", async () => {
    const source = await add("Race one");
    expect((await removeSource(server.services, source.id, "remover")).removed).toBe(true);
    // The sync of the list read before the removal, as `sources sync --all` or the schedule runs it.
    const run = await runSync(server.services, source, { trigger: "schedule", holder: "test", documents: () => [doc("a.md", "Changed text.")] });
    expect(run.summary.error?.code).toBe("source_removed");
    expect(await server.services.catalog.get(source.id)).toBeNull();
    expect((await server.services.catalog.list()).map((s) => s.name)).not.toContain("Race one");
    expect((await server.services.writer.pageHashes(source.id)).size).toBe(0);
  });

  it("refuses to remove a source while a sync holds it, and the source stays whole", async () => {
    const source = await add("Race two");
    expect(await server.services.syncLeases.acquire(source.id, "syncer", 60_000)).toBe(true);
    expect(await removeSource(server.services, source.id, "remover")).toEqual({ removed: false, busy: "syncer" });
    expect((await server.services.catalog.get(source.id))?.pages).toBe(1);
    expect((await server.services.writer.pageHashes(source.id)).size).toBe(1);
    // Once the sync is over, it can be removed.
    await server.services.syncLeases.release(source.id, "syncer");
    expect(await removeSource(server.services, source.id, "remover")).toEqual({ removed: true });
    expect((await server.services.writer.pageHashes(source.id)).size).toBe(0);
  });
});
