import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";

// Prisma's CLI runs on its JS engine with a driver adapter, so nothing is
// downloaded: `prisma generate` and `prisma migrate diff` work offline.
// The service applies migrations itself (src/db/migrate.ts). PostgreSQL's
// schema is prisma/postgresql/schema.prisma (generated with --schema).
export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    const file = process.env.PRISMA_CLI_DB ?? "./data/docent.db";
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return new PrismaBetterSQLite3({ url: `file:${file}` });
  },
});
