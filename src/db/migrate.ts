import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { migrationFiles } from "./migration-files.ts";

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

/**
 * Applies the committed Prisma migrations (prisma/migrations/<name>/migration.sql)
 * in order, each in its own transaction, recording them in Prisma's own
 * `_prisma_migrations` table so `prisma migrate status` agrees. Works offline:
 * no Prisma engine binary is involved.
 */
export function migrateSqlite(file: string, dir = MIGRATIONS_DIR): MigrationResult {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME, "migration_name" TEXT NOT NULL,
      "logs" TEXT, "rolled_back_at" DATETIME, "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
      "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`);
    const done = new Set(
      (
        db.prepare(`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`).all() as {
          migration_name: string;
        }[]
      ).map((r) => r.migration_name),
    );
    const applied: string[] = [];
    for (const { name, sql, checksum } of migrationFiles(dir)) {
      if (done.has(name)) continue;
      db.transaction(() => {
        db.exec(sql);
        db.prepare(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, current_timestamp, ?, current_timestamp, 1)`,
        ).run(randomUUID(), checksum, name);
      }).immediate();
      applied.push(name);
    }
    return { applied, alreadyApplied: done.size };
  } finally {
    db.close();
  }
}
