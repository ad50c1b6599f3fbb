import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import { afterAll, describe, expect, it } from "vitest";
import { startPostgres } from "../../test/support/postgres.ts";
import { migrateSqlite } from "./migrate.ts";
import { migratePostgres } from "./migrate-postgres.ts";
import { createPostgresClient, createSqliteClient } from "./prisma-client.ts";
import { createPrismaPageValidators } from "./prisma-page-validators.ts";
import { createPrismaSourceCatalog } from "./prisma-source-catalog.ts";
import { createPrismaSyncLeases } from "./prisma-sync-leases.ts";

const pg = await startPostgres();
afterAll(() => pg?.stop());

const databases: Array<[string, () => Promise<PrismaClient> | null]> = [
  [
    "SQLite",
    async () => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "docent-sync-")), "docent.db");
      migrateSqlite(file);
      return createSqliteClient(file);
    },
  ],
  ["PostgreSQL", () => (pg ? migratePostgres(pg.url).then(() => createPostgresClient(pg.url)) : null)],
];

/** The sync state (leases, validators, sync summaries) on both databases, through the committed migrations. */
describe.each(databases)("sync state on %s", (name, open) => {
  const available = name === "SQLite" || pg !== null;
  let prisma: PrismaClient;
  const ready = async () => (prisma ??= (await open())!);
  afterAll(async () => prisma?.$disconnect());

  it.skipIf(!available)("a lease goes to one holder at a time, and to another once it lapses or is released", async () => {
    let clock = Date.parse("2026-11-23T10:00:00Z");
    const leases = createPrismaSyncLeases(await ready(), () => new Date(clock));
    const id = `source-${name}`;
    // Both ask at once: exactly one wins.
    const [a, b] = await Promise.all([leases.acquire(id, "a", 60_000), leases.acquire(id, "b", 60_000)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const winner = a ? "a" : "b";
    const loser = a ? "b" : "a";
    expect(await leases.holder(id)).toMatchObject({ holder: winner });
    expect(await leases.renew(id, loser, 60_000)).toBe(false);
    expect(await leases.renew(id, winner, 60_000)).toBe(true);
    clock += 59_000;
    expect(await leases.acquire(id, loser, 60_000)).toBe(false);
    // Not renewed in time: the lease lapses (at its expiry exactly, as holder() says) and the other may take it; the
    // first holder's renewal then fails.
    clock += 1_000;
    expect(await leases.holder(id)).toBeNull();
    expect(await leases.acquire(id, loser, 60_000)).toBe(true);
    expect(await leases.renew(id, winner, 60_000)).toBe(false);
    // Releasing another's lease does nothing; releasing one's own frees it.
    await leases.release(id, winner);
    expect(await leases.acquire(id, winner, 60_000)).toBe(false);
    await leases.release(id, loser);
    expect(await leases.acquire(id, winner, 60_000)).toBe(true);
  });

  it.skipIf(!available)("validators are replaced per source; a sync summary moves last_synced_at only when it succeeded, never updated_at", async () => {
    const db = await ready();
    const validators = createPrismaPageValidators(db);
    const catalog = createPrismaSourceCatalog(db);
    const source = await catalog.upsert({
      id: `s-${name}`,
      name: `S ${name}`,
      description: "",
      baseUrl: "https://x.org/",
      origin: "https://x.org/",
      pages: 2,
      chunks: 2,
    });
    const many = new Map(
      Array.from({ length: 1200 }, (_, i) => [
        `https://x.org/p${i}.html`,
        { etag: `"e${i}"`, lastModified: null, links: i === 0 ? ["https://x.org/p1.html"] : null, basis: "b" },
      ]),
    );
    await validators.replace(source.id, many);
    await validators.replace(source.id, new Map([...many].slice(0, 2)));
    const loaded = await validators.load(source.id);
    expect([...loaded.keys()]).toEqual(["https://x.org/p0.html", "https://x.org/p1.html"]);
    expect(loaded.get("https://x.org/p0.html")).toEqual({ etag: '"e0"', lastModified: null, links: ["https://x.org/p1.html"], basis: "b" });

    const base = {
      trigger: "schedule" as const,
      startedAt: "2026-11-23T10:00:00.000Z",
      seconds: 1,
      added: 0,
      changed: 0,
      removed: 0,
      unchanged: 2,
      notModified: 2,
      skipped: 0,
      pages: 2,
      chunks: 2,
      error: null,
    };
    await catalog.recordSync(source.id, { ...base, status: "ok", finishedAt: "2026-11-23T10:00:01.000Z" });
    await catalog.recordSync(source.id, {
      ...base,
      status: "failed",
      finishedAt: "2026-11-23T11:00:01.000Z",
      error: { code: "unreachable_url", message: "down" },
    });
    await catalog.setRefresh(source.id, 3600);
    expect((await catalog.get(source.id))!.crawl).toBeNull();
    await catalog.setCrawl(source.id, { maxPages: 3, sitemap: "https://x.example/map.xml" });
    const after = (await catalog.get(source.id))!;
    expect(after.crawl).toEqual({ maxPages: 3, sitemap: "https://x.example/map.xml" });
    expect(after.lastSyncedAt?.toISOString()).toBe("2026-11-23T10:00:01.000Z");
    expect(after.lastSync).toMatchObject({ status: "failed", error: { code: "unreachable_url" } });
    expect(after.refreshSeconds).toBe(3600);
    expect(after.updatedAt).toEqual(source.updatedAt);

    expect(await catalog.remove(source.id)).toBe(true);
    expect((await validators.load(source.id)).size).toBe(0);
  });
});
