import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe } from "vitest";
import { startPostgres } from "../../test/support/postgres.ts";
import { usageStoreContract } from "../core/usage-store.contract.ts";
import { migrateSqlite } from "./migrate.ts";
import { migratePostgres } from "./migrate-postgres.ts";
import { createPostgresClient, createSqliteClient } from "./prisma-client.ts";
import { createPrismaServedCompletions } from "./prisma-served-completions.ts";
import { createPrismaUsageStore } from "./prisma-usage-store.ts";

usageStoreContract("Prisma on SQLite", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docent-usage-"));
  const file = path.join(dir, "docent.db");
  migrateSqlite(file);
  const prisma = createSqliteClient(file);
  return {
    usage: createPrismaUsageStore(prisma),
    served: createPrismaServedCompletions(prisma),
    async cleanup() {
      await prisma.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

const cluster = await startPostgres();
afterAll(() => cluster?.stop());
let databases = 0;

describe.skipIf(!cluster)(`PostgreSQL${cluster ? "" : " (skipped: PostgreSQL server binaries not installed)"}`, () => {
  usageStoreContract("Prisma on PostgreSQL", async () => {
    const name = `usage_${process.pid}_${++databases}`;
    const admin = new pg.Client({ connectionString: cluster!.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = cluster!.url.replace(/\/[^/]*$/, `/${name}`);
    await migratePostgres(url);
    const prisma = await createPostgresClient(url);
    return { usage: createPrismaUsageStore(prisma), served: createPrismaServedCompletions(prisma), cleanup: () => prisma.$disconnect() };
  });
});
