import { databaseFile, type Config } from "../config.ts";
import { migrateSqlite, type MigrationResult } from "./migrate.ts";
import { migratePostgres } from "./migrate-postgres.ts";
import { isPostgresUrl } from "./prisma-client.ts";

/** Applies the committed migrations to the configured database (SQLite or PostgreSQL). */
export async function migrateDatabase(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): Promise<MigrationResult> {
  return isPostgresUrl(config.DATABASE_URL) ? migratePostgres(config.DATABASE_URL!) : migrateSqlite(databaseFile(config));
}
