import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startPostgres } from "../../test/support/postgres.ts";
import { generateApiKey, hashKey, keyLookup } from "../auth/api-key.ts";
import { keyStoreContract } from "../core/key-store.contract.ts";
import { MIGRATIONS_DIR, migrateSqlite } from "./migrate.ts";
import { migratePostgres, POSTGRES_MIGRATIONS_DIR } from "./migrate-postgres.ts";
import { createPostgresClient, createSqliteClient, type PrismaClient } from "./prisma-client.ts";
import { createPrismaKeyStore } from "./prisma-key-store.ts";

const SCOPE_MIGRATION = "20261122000000_key_scope_and_expiry";

/** A copy of the migrations a database had before keys gained a scope and an expiry. */
function previousMigrations(dir: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "docent-migrations-"));
  for (const name of fs.readdirSync(dir)) if (name < SCOPE_MIGRATION) fs.cpSync(path.join(dir, name), path.join(copy, name), { recursive: true });
  return copy;
}

/** Two keys as the previous docent stored them (Prisma's text dates): one active, one revoked. */
function previousKeys() {
  const at = (iso: string) => iso.replace("Z", "+00:00");
  return [
    { id: "old-active", name: "old-active", key: generateApiKey(), createdAt: at("2026-11-01T10:00:00.000Z"), revokedAt: null },
    { id: "old-revoked", name: "old-revoked", key: generateApiKey(), createdAt: at("2026-11-02T10:00:00.000Z"), revokedAt: at("2026-11-03T10:00:00.000Z") },
  ];
}

keyStoreContract("Prisma on SQLite", async (clock) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docent-keys-"));
  const file = path.join(dir, "docent.db");
  migrateSqlite(file);
  const prisma = createSqliteClient(file);
  return {
    keys: createPrismaKeyStore(prisma, { now: clock.now }),
    // One connection: better-sqlite3 waits for a lock synchronously, so two in one thread would wait on each other.
    another: async () => createPrismaKeyStore(prisma, { now: clock.now }),
    async storedRows() {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(`SELECT * FROM "ApiKey"`).all();
      } finally {
        db.close();
      }
    },
    async cleanup() {
      await prisma.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

const cluster = await startPostgres();
afterAll(() => cluster?.stop());
let databases = 0;

/** A fresh, migrated database in the throw-away cluster. */
async function freshPostgresDatabase(url: string): Promise<string> {
  const name = `keys_${process.pid}_${++databases}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return url.replace(/\/[^/]*$/, `/${name}`);
}

describe.skipIf(!cluster)(`PostgreSQL${cluster ? "" : " (skipped: PostgreSQL server binaries not installed)"}`, () => {
  keyStoreContract("Prisma on PostgreSQL", async (clock) => {
    const url = await freshPostgresDatabase(cluster!.url);
    await migratePostgres(url);
    const prisma = await createPostgresClient(url);
    const others: PrismaClient[] = [];
    return {
      keys: createPrismaKeyStore(prisma, { now: clock.now }),
      async another() {
        const client = await createPostgresClient(url);
        others.push(client);
        return createPrismaKeyStore(client, { now: clock.now });
      },
      async storedRows() {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query(`SELECT * FROM "ApiKey"`)).rows;
        } finally {
          await client.end();
        }
      },
      async cleanup() {
        for (const client of [prisma, ...others]) await client.$disconnect();
      },
    };
  });
});

/** An existing database upgrades in place: its keys keep working, unscoped and never expiring. */
describe("upgrade of a database made before key scopes and expiry", () => {
  const expectUpgraded = async (store: ReturnType<typeof createPrismaKeyStore>, old: ReturnType<typeof previousKeys>) => {
    const active = await store.verify(old[0]!.key);
    expect(active).toMatchObject({ id: "old-active", sourceIds: null, expiresAt: null, revokedAt: null });
    expect(active?.createdAt.toISOString()).toBe("2026-11-01T10:00:00.000Z");
    expect(await store.verify(old[1]!.key)).toBeNull();
    expect((await store.list()).map((k) => [k.id, k.sourceIds, k.expiresAt])).toEqual([
      ["old-active", null, null],
      ["old-revoked", null, null],
    ]);
    // New keys can carry a scope and an expiry in the upgraded table.
    const scoped = await store.create("new", { sourceIds: ["s"], expiresAt: new Date(Date.now() + 60_000) });
    expect(await store.verify(scoped.key)).toMatchObject({ sourceIds: ["s"] });
  };

  it("on SQLite", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docent-keys-"));
    const file = path.join(dir, "docent.db");
    const previous = previousMigrations(MIGRATIONS_DIR);
    try {
      expect(migrateSqlite(file, previous).applied).not.toContain(SCOPE_MIGRATION);
      const old = previousKeys();
      const db = new Database(file);
      const insert = db.prepare(`INSERT INTO "ApiKey" (id, name, lookup, hash, createdAt, revokedAt) VALUES (?, ?, ?, ?, ?, ?)`);
      for (const k of old) insert.run(k.id, k.name, keyLookup(k.key), hashKey(k.key), k.createdAt, k.revokedAt);
      db.close();

      expect(migrateSqlite(file).applied.filter((name) => name <= SCOPE_MIGRATION)).toEqual([SCOPE_MIGRATION]);
      const prisma = createSqliteClient(file);
      try {
        await expectUpgraded(createPrismaKeyStore(prisma), old);
      } finally {
        await prisma.$disconnect();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(previous, { recursive: true, force: true });
    }
  });

  it.skipIf(!cluster)("on PostgreSQL", async () => {
    const url = await freshPostgresDatabase(cluster!.url);
    const previous = previousMigrations(POSTGRES_MIGRATIONS_DIR);
    try {
      expect((await migratePostgres(url, previous)).applied).not.toContain(SCOPE_MIGRATION);
      const old = previousKeys();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      for (const k of old) {
        await client.query(`INSERT INTO "ApiKey" (id, name, lookup, hash, "createdAt", "revokedAt") VALUES ($1, $2, $3, $4, $5, $6)`, [
          k.id,
          k.name,
          keyLookup(k.key),
          hashKey(k.key),
          k.createdAt,
          k.revokedAt,
        ]);
      }
      await client.end();

      expect((await migratePostgres(url)).applied.filter((name) => name <= SCOPE_MIGRATION)).toEqual([SCOPE_MIGRATION]);
      const prisma = await createPostgresClient(url);
      try {
        await expectUpgraded(createPrismaKeyStore(prisma), old);
      } finally {
        await prisma.$disconnect();
      }
    } finally {
      fs.rmSync(previous, { recursive: true, force: true });
    }
  });
});
