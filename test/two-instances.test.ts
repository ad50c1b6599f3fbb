import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { silentLogger } from "../src/logging/logger.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { startPostgres, type TestPostgres } from "./support/postgres.ts";
import { FIXTURES, tempDir } from "./support/test-server.ts";

const pg = await startPostgres();

/**
 * Two docent instances on one PostgreSQL database, each with its own services
 * (own Prisma client, own keys and catalog in memory), as two replicas behind
 * a load balancer run: what one changes, the other serves within a second.
 */
describe.skipIf(!pg)(`two instances on one PostgreSQL${pg ? "" : " (skipped: PostgreSQL server binaries not installed)"}`, () => {
  const dirs = [tempDir(), tempDir()];
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    // REFRESH_INTERVAL_MS at its default (500 ms): the promise is "within a second".
    const start = (dir: string) =>
      startServer(loadConfig({ DATABASE_URL: pg!.url, DATA_DIR: dir, PORT: "0", DOCENT_DEMO: "0" }), { log: () => {}, logger: silentLogger() });
    [a, b] = (await Promise.all(dirs.map(start))) as [RunningServer, RunningServer];
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    (pg as TestPostgres).stop();
  });

  const status = async (server: RunningServer, key: string) =>
    (await fetch(`${server.url}/v1/sources`, { headers: { authorization: `Bearer ${key}` } })).status;
  const withinASecond = { timeout: 1000, interval: 25 };

  // What two replicas end with. They seldom meet at the key check here (the second waits for the first's
  // migration lock), so the race itself is the key store contract's test ("makes the first key once…").
  it("made one first key between them, started together on an empty database", async () => {
    const made = [a.firstKey, b.firstKey].filter((key) => key !== null);
    expect(made).toHaveLength(1);
    expect((await a.services.keys.list()).map((k) => k.name)).toEqual(["first-run"]);
    expect(await status(b, made[0]!)).toBe(200);
  });

  it("refuses a key revoked through one instance at once there, and within a second on the other", async () => {
    const created = await a.services.keys.create("shared");
    await expect.poll(() => status(b, created.key), withinASecond).toBe(200);
    expect(await status(a, created.key)).toBe(200);

    // Both have served it from memory; now one of them revokes it.
    expect(await a.services.keys.revoke(created.id)).toBe(true);
    const revokedAt = performance.now();
    expect(await status(a, created.key)).toBe(401);
    await expect.poll(() => status(b, created.key), withinASecond).toBe(401);
    console.log(`revoked through one instance, refused by the other after ${(performance.now() - revokedAt).toFixed(0)} ms`);
  });

  it("lists a source added through one instance on the other within a second", async () => {
    const key = (await b.services.keys.create("reader")).key;
    const { source } = await ingestDocuments(a.services, {
      name: "SQLite Documentation",
      baseUrl: "https://www.sqlite.org/",
      origin: "fixtures",
      documents: listDocuments(path.join(FIXTURES, "sqlite")),
    });
    const listed = async () =>
      ((await (await fetch(`${b.url}/v1/sources`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: Array<{ id: string }> }).data.map(
        (s) => s.id,
      );
    await expect.poll(listed, withinASecond).toEqual([source.id]);
  });
});
