import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres, POSTGRES_MIGRATIONS_DIR } from "../src/db/migrate-postgres.ts";
import { migrationFiles } from "../src/db/migration-files.ts";
import { startPostgres, type TestPostgres } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const pg = await startPostgres();

/** DATABASE_URL=postgresql://… : the same service with keys and sources in a real PostgreSQL. */
describe.skipIf(!pg)(`PostgreSQL database${pg ? "" : " (skipped: PostgreSQL server binaries not installed)"}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DATABASE_URL: pg!.url });
  });
  afterAll(async () => {
    await server?.close();
    (pg as TestPostgres).stop();
  });

  it("applies the committed migrations once, recorded as Prisma does", async () => {
    // startTestServer already migrated; a second run finds nothing to do.
    const committed = migrationFiles(POSTGRES_MIGRATIONS_DIR).length;
    expect(await migratePostgres(pg!.url)).toEqual({ applied: [], alreadyApplied: committed });
    const { stdout } = await run("npm", ["run", "-s", "cli", "--", "db", "migrate"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: pg!.url } });
    expect(stdout).toContain(`up to date (${committed} migrations)`);
  });

  it("serves answers with keys and sources stored in PostgreSQL", async () => {
    const client = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const reply = (await client.chat.completions.create({
      model: "agent",
      messages: [{ role: "user", content: "How do I physically reorder a table according to an index?" }],
      sources: [server.sources.pg],
    } as never)) as unknown as { url_references: string[] };
    expect(reply.url_references[0]).toMatch(/sql-cluster\.html/);
    const sources = await server.services.catalog.list();
    expect(sources.map((s) => s.name).sort()).toEqual(["PostgreSQL 15 Documentation", "SQLite Documentation"]);

    const extra = await server.services.keys.create("pg-key");
    expect(await server.services.keys.verify(extra.key)).toMatchObject({ id: extra.id, name: "pg-key" });
    await server.services.keys.revoke(extra.id);
    expect(await server.services.keys.verify(extra.key)).toBeNull();
  });
});
