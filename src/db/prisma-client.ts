import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@prisma/client";

/** A Prisma client on the JS query engine, over better-sqlite3: no engine binary needed. */
export function createPrismaClient(file: string): PrismaClient {
  const adapter = new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 5000 });
  return new PrismaClient({ adapter });
}

export type { PrismaClient };
