import { randomUUID } from "node:crypto";
import path from "node:path";
import pg from "pg";
import type { MigrationResult } from "./migrate.ts";
import { migrationFiles } from "./migration-files.ts";

export const POSTGRES_MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/postgresql/migrations");

/**
 * Applies the committed PostgreSQL migrations in order, each in a
 * transaction, recorded in Prisma's `_prisma_migrations` table. Prisma's own
 * `migrate deploy` cannot run here through the pg driver adapter (see
 * NOTES.md), so this small runner does what it would.
 */
export async function migratePostgres(url: string, dir = POSTGRES_MIGRATIONS_DIR): Promise<MigrationResult> {
  // A host that drops packets would otherwise hang the start for ever.
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    // One migrator at a time across processes.
    await client.query("SELECT pg_advisory_lock(72707369)");
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ, "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT, "rolled_back_at" TIMESTAMPTZ, "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const { rows } = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Set(rows.map((r) => r.migration_name));
    const applied: string[] = [];
    for (const { name, sql, checksum } of migrationFiles(dir)) {
      if (done.has(name)) continue;
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), checksum, name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      applied.push(name);
    }
    return { applied, alreadyApplied: done.size };
  } finally {
    await client.query("SELECT pg_advisory_unlock(72707369)").catch(() => {});
    await client.end();
  }
}
