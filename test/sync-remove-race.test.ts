import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexWriter } from "../src/core/retriever.ts";
import { ensureDemoSource } from "../src/demo-source.ts";
import { ingestDocuments, removeSource } from "../src/ingest/ingest-documents.ts";
import type { SourceDocument } from "../src/ingest/list-documents.ts";
import { removeOrphanSources } from "../src/sync/orphan-sources.ts";
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

  it("removes the passages a crash left without a source, but never those of an add still under way", async () => {
    const page = (id: string) => ({
      url: `https://orphan.example/${id}.html`,
      hash: id,
      chunks: [{ sourceId: id, url: `https://orphan.example/${id}.html`, anchor: "", title: "Orphan", section: "", text: "Quuxing the orphan." }],
    });
    const orphan = "0a0a0a0a-0000-4000-8000-000000000001";
    const adding = "0a0a0a0a-0000-4000-8000-000000000002";
    await server.services.writer.replaceSource(orphan, [page(orphan)]);
    await server.services.writer.replaceSource(adding, [page(adding)]);
    await server.services.syncLeases.acquire(adding, "adder", 60_000);
    expect(await removeOrphanSources(server.services)).toEqual([orphan]);
    const indexed = await server.services.writer.sourceIds();
    expect(indexed).not.toContain(orphan);
    expect(indexed).toContain(adding);
    await server.services.syncLeases.release(adding, "adder");
    await server.services.writer.removeSource(adding);
    // A new source added by a sync is leased from before its passages are written until its catalog row is:
    // a look for orphans in between (another process starting) leaves it alone.
    let seenMeanwhile: string[] | null = null;
    const writer: IndexWriter = {
      ...server.services.writer,
      applyChanges: async (id, changes) => {
        const totals = await server.services.writer.applyChanges(id, changes);
        seenMeanwhile = await removeOrphanSources(server.services);
        return totals;
      },
    };
    const run = await runSync(
      { ...server.services, writer },
      { id: null, name: "Race three", baseUrl: "https://race.example/", origin: "https://race.example/" },
      { trigger: "add", holder: "test", documents: () => [doc("a.md", "The Race three frobnicator controls zorbling.")] },
    );
    expect(seenMeanwhile).toEqual([]);
    expect((await server.services.writer.pageHashes(run.result!.source.id)).size).toBe(1);
    // So is the demo source a fresh install adds at start.
    seenMeanwhile = null;
    const fresh = { ...server.services.catalog, list: async () => [], findByName: async () => null };
    const demo = await ensureDemoSource({ ...server.services, catalog: fresh, writer }, server.url);
    expect(seenMeanwhile).toEqual([]);
    expect((await server.services.writer.pageHashes(demo!.source.id)).size).toBeGreaterThan(0);
    // Refreshing it at a later start (on another address: every page changes) holds its lease: a removal meanwhile is
    // refused, not undone, and the source is not left listed with an empty index.
    let removal: Awaited<ReturnType<typeof removeSource>> | null = null;
    const refreshing: IndexWriter = {
      ...server.services.writer,
      applyChanges: async (id, changes) => {
        removal = await removeSource(server.services, id, "cli");
        return server.services.writer.applyChanges(id, changes);
      },
    };
    expect(await ensureDemoSource({ ...server.services, writer: refreshing }, "http://127.0.0.1:9")).not.toBeNull();
    expect(removal).toMatchObject({ removed: false });
    expect((await server.services.catalog.get(demo!.source.id))?.pages).toBeGreaterThan(0);
  });

  it("says plainly that another process added the same new name meanwhile, and leaves none of its own passages", async () => {
    const first = await add("Race four");
    const before = await server.services.writer.sourceIds();
    // The second add looked the name up before the first one's catalog row existed.
    const catalog = { ...server.services.catalog, findByName: async () => null };
    const second = ingestDocuments(
      { ...server.services, catalog },
      { name: "Race four", baseUrl: "https://race.example/", origin: "https://race.example/", documents: [doc("b.md", "Another frobnicator.")] },
    );
    await expect(second).rejects.toMatchObject({ reason: "source_added_meanwhile", message: expect.stringMatching(/added by another process meanwhile/) });
    expect((await server.services.writer.sourceIds()).sort()).toEqual(before.sort());
    expect((await server.services.catalog.findByName("Race four"))?.id).toBe(first.id);
  });
});
