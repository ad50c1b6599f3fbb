import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlRequest, trpcClient } from "./support/clients.ts";
import { FIXTURES, startTestServer, type TestServer } from "./support/test-server.ts";

/** snake_case keys → camelCase, as GraphQL names the same fields (nested objects too). */
const camel = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(o).map(([k, v]) => [
      k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
      v && typeof v === "object" && !Array.isArray(v) ? camel(v as Record<string, unknown>) : v,
    ]),
  );

describe("one resource shape on every interface", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  const rest = async (path: string) => (await fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${server.key}` } })).json();

  it("a source and a model are the same object on REST, tRPC and GraphQL", async () => {
    // One source with a recorded sync, so its last_sync object is compared too.
    await server.services.catalog.recordSync(server.sources.sqlite, {
      status: "failed",
      trigger: "schedule",
      startedAt: "2026-11-23T10:00:00.000Z",
      finishedAt: "2026-11-23T10:00:02.500Z",
      seconds: 2.5,
      added: 0,
      changed: 0,
      removed: 0,
      unchanged: 0,
      notModified: 0,
      skipped: 0,
      pages: 0,
      chunks: 0,
      error: { code: "unreachable_url", message: "https://www.sqlite.org/ answered HTTP 503." },
    });
    const restSources = (await rest("/sources")).data;
    const restModels = (await rest("/models")).data;
    const restOne = await rest(`/sources/${server.sources.pg}`);
    const trpc = trpcClient(server.url, server.key);
    expect(await trpc.sources.list.query()).toEqual(restSources);
    expect(await trpc.sources.get.query({ id: server.sources.pg })).toEqual(restOne);
    expect(await trpc.models.list.query()).toEqual(restModels);

    const { body } = await graphqlRequest(
      server.url,
      server.key,
      `{ sources { id object name description baseUrl pages chunks createdAt updatedAt lastSyncedAt
           lastSync { status trigger startedAt finishedAt seconds added changed removed unchanged notModified skipped error { code message } } }
         models { id object created ownedBy resolvesTo structuredResolvesTo available unavailableReason } }`,
    );
    expect(body.data.sources).toEqual(restSources.map(camel));
    expect(restSources.find((s: { id: string }) => s.id === server.sources.sqlite).last_sync).toMatchObject({
      status: "failed",
      finished_at: 1795428002,
      error: { code: "unreachable_url" },
    });
    // GraphQL lists every field (null where REST omits one).
    expect(body.data.models).toEqual(restModels.map((m: Record<string, unknown>) => ({ structuredResolvesTo: null, ...camel(m) })));
  });

  it("no interface shows where a source was read from on the server", async () => {
    const trpc = trpcClient(server.url, server.key);
    const { body } = await graphqlRequest(server.url, server.key, `{ sources { id name description baseUrl } }`);
    const everything = JSON.stringify([
      await rest("/sources"),
      await rest(`/sources/${server.sources.sqlite}`),
      await trpc.sources.list.query(),
      await trpc.sources.get.query({ id: server.sources.sqlite }),
      body,
    ]);
    expect(everything).not.toContain(FIXTURES);
    expect(everything).not.toContain("origin");
    expect(everything).not.toContain(server.dataDir);
  });
});
