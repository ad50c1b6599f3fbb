import { type Config, databaseFile } from "../config.ts";
import { errorCode, redactUrl, StartupError, sqliteStartupError, systemReason } from "../startup-error.ts";
import { type MigrationResult, migrateSqlite } from "./migrate.ts";
import { migratePostgres } from "./migrate-postgres.ts";
import { isPostgresUrl } from "./prisma-client.ts";

/**
 * Applies the committed migrations to the configured database (SQLite or
 * PostgreSQL). This is the first contact with the database, so a database
 * that cannot be reached or opened is reported here, in one line.
 */
export async function migrateDatabase(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): Promise<MigrationResult> {
  if (isPostgresUrl(config.DATABASE_URL)) {
    try {
      return await migratePostgres(config.DATABASE_URL!);
    } catch (error) {
      throw postgresStartupError(error, config.DATABASE_URL!) ?? error;
    }
  }
  const file = databaseFile(config);
  try {
    return migrateSqlite(file);
  } catch (error) {
    throw sqliteStartupError(error, file) ?? error;
  }
}

/** Connection failures (network, timeout, authentication, no such database); other errors keep their stack. */
function postgresStartupError(error: unknown, url: string): StartupError | null {
  const code = errorCode(error) ?? "";
  const message = (error as Error)?.message ?? String(error);
  const at = `the database at ${redactUrl(url)}`;
  if (systemReason(error)) return new StartupError(`cannot reach ${at}: ${systemReason(error)}.`, { cause: error });
  if (/timeout/i.test(message) && !code) return new StartupError(`cannot reach ${at}: ${message}.`, { cause: error });
  // SQLSTATE classes 08 (connection), 28 (authorization), 3D (no such database).
  if (/^(08|28|3D)/.test(code)) return new StartupError(`cannot use ${at}: ${message} (${code}).`, { cause: error });
  return null;
}
