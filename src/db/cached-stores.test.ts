import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { keyStoreContract } from "../core/key-store.contract.ts";
import { createCachedKeyStore } from "./cached-key-store.ts";
import { createCachedSourceCatalog } from "./cached-source-catalog.ts";
import { watchChanges } from "./change-counter.ts";
import { migrateSqlite } from "./migrate.ts";
import { createSqliteClient, type PrismaClient } from "./prisma-client.ts";
import { createPrismaKeyStore } from "./prisma-key-store.ts";
import { createPrismaSourceCatalog } from "./prisma-source-catalog.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A migrated SQLite database and a Prisma client on it; `connect` opens another client, as another process would. */
function database() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docent-cache-"));
  const file = path.join(dir, "docent.db");
  migrateSqlite(file);
  const clients: PrismaClient[] = [];
  const connect = () => {
    const client = createSqliteClient(file);
    clients.push(client);
    return client;
  };
  cleanups.push(async () => {
    for (const c of clients) await c.$disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { file, connect };
}

keyStoreContract("Prisma on SQLite, held in memory", async (clock) => {
  const { file, connect } = database();
  const client = connect();
  return {
    keys: createCachedKeyStore(client, { now: clock.now }),
    // Its own cache over the same connection (see prisma-key-store.test.ts for why not a second one).
    another: async () => createCachedKeyStore(client, { now: clock.now }),
    async storedRows() {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(`SELECT * FROM "ApiKey"`).all();
      } finally {
        db.close();
      }
    },
  };
});

const withinASecond = { timeout: 1000, interval: 20 };
/** Lets a 50 ms watcher catch up with this process's own changes, so what follows is seen only through the counter. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe("keys and sources held in memory", () => {
  it("verify keys without a query: a row deleted behind the store's back still verifies until the counter moves", async () => {
    const { file, connect } = database();
    const keys = createCachedKeyStore(connect());
    const created = await keys.create("k");
    const db = new Database(file);
    db.prepare(`DELETE FROM "ApiKey"`).run();
    db.close();
    expect(await keys.verify(created.key)).toMatchObject({ id: created.id });
    await keys.reload();
    expect(await keys.verify(created.key)).toBeNull();
  });

  it("refuse a key revoked in this process at once, and one revoked by another process once the counter is polled", async () => {
    const { connect } = database();
    const here = connect();
    const keys = createCachedKeyStore(here);
    const watcher = watchChanges(here, { intervalMs: 50, onChange: () => keys.reload() });
    cleanups.push(() => watcher.close());
    await watcher.started;
    const [a, b] = [await keys.create("a"), await keys.create("b")];
    expect(await keys.revoke(a.id)).toBe(true);
    expect(await keys.verify(a.key)).toBeNull();

    const elsewhere = createPrismaKeyStore(connect());
    expect(await keys.verify(b.key)).not.toBeNull();
    await settle();
    await elsewhere.revoke(b.id);
    await expect.poll(() => keys.verify(b.key), withinASecond).toBeNull();
    await settle();
    const c = await elsewhere.create("c");
    await expect.poll(() => keys.verify(c.key), withinASecond).not.toBeNull();
  });

  it("serve sources added or removed by another process once the counter is polled, and their own changes at once", async () => {
    const { connect } = database();
    const here = connect();
    const catalog = createCachedSourceCatalog(here);
    const watcher = watchChanges(here, { intervalMs: 50, onChange: () => catalog.reload() });
    cleanups.push(() => watcher.close());
    await watcher.started;
    const source = { id: "s1", name: "One", description: "", baseUrl: "https://one.example/", origin: "", pages: 1, chunks: 2 };
    await catalog.upsert(source);
    expect((await catalog.list()).map((s) => s.id)).toEqual(["s1"]);

    const elsewhere = createPrismaSourceCatalog(connect());
    await settle();
    await elsewhere.upsert({ ...source, id: "s2", name: "Two" });
    await expect.poll(async () => (await catalog.list()).map((s) => s.id), withinASecond).toEqual(["s1", "s2"]);
    expect(await catalog.findByName("Two")).toMatchObject({ id: "s2" });
    await settle();
    await elsewhere.remove("s1");
    await expect.poll(() => catalog.get("s1"), withinASecond).toBeNull();
  });
});
