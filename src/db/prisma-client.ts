import { createRequire } from "node:module";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@prisma/client";

export type { PrismaClient };

export const isPostgresUrl = (url: string | undefined) => !!url && /^postgres(ql)?:\/\//.test(url);

/** A Prisma client on the JS query engine, over better-sqlite3: no engine binary needed. */
export function createSqliteClient(file: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 5000 }) });
}

/**
 * The same models on PostgreSQL, through the client generated from
 * prisma/postgresql/schema.prisma and the pg driver adapter. Its model API is
 * the SQLite client's, so the stores take either.
 */
export async function createPostgresClient(url: string): Promise<PrismaClient> {
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const require = createRequire(import.meta.url);
  const generated = require(path.resolve(import.meta.dirname, "../../node_modules/.prisma/client-postgresql")) as { PrismaClient: typeof PrismaClient };
  return new generated.PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}
