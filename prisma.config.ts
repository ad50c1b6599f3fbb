import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

// Prisma's CLI runs on its JS engine with a driver adapter, so nothing is
// downloaded: `prisma generate` and `prisma migrate diff` work offline.
// The service applies migrations itself (src/db/migrate.ts).
export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    return new PrismaBetterSQLite3({ url: process.env.PRISMA_CLI_DB ?? "file:./data/docent.db" });
  },
});
