import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface MigrationFile {
  name: string;
  sql: string;
  /** SHA-256 of the file, as Prisma records it. */
  checksum: string;
}

/** The committed migrations of a folder (`<name>/migration.sql`), in order. */
export function migrationFiles(dir: string): MigrationFile[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}
