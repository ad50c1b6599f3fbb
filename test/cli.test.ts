import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { MIGRATIONS_DIR } from "../src/db/migrate.ts";
import { migrationFiles } from "../src/db/migration-files.ts";
import { startServer, type RunningServer } from "../src/server.ts";
import { FIXTURES, tempDir, pageOf } from "./support/test-server.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");

/** The CLI as a user runs it (`npm run -s cli -- …`), against a server that keeps running. */
describe("CLI", () => {
  let dataDir: string;
  let server: RunningServer;
  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run("npm", ["run", "-s", "cli", "--", ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const ask = (key: string, content: string) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content }] }),
    });

  beforeAll(async () => {
    dataDir = tempDir();
    server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "0" }), { log: () => {} });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates, lists and revokes keys; the secret is printed once and stored only as a hash", async () => {
    const created = await cli("keys", "create", "--name", "ci", "--json");
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ name: "ci" });
    expect(key.key).toMatch(/^dk_[A-Za-z0-9_-]{43}$/);
    expect((await ask(key.key, "vacuum")).status).toBe(200);

    const list = await cli("keys", "list");
    expect(list.stdout).toContain(key.id);
    expect(list.stdout).not.toContain(key.key);
    const db = new Database(path.join(dataDir, "docent.db"), { readonly: true });
    const dump = JSON.stringify(db.prepare("SELECT * FROM ApiKey").all());
    db.close();
    expect(dump).not.toContain(key.key);
    expect(dump).toMatch(/[0-9a-f]{64}/);

    expect((await cli("keys", "revoke", key.id)).code).toBe(0);
    expect((await ask(key.key, "vacuum")).status).toBe(401);
    expect((await cli("keys", "revoke", key.id)).code).not.toBe(0);
  });

  it("adds and removes sources that the running server serves without a restart", async () => {
    const key = (await server.services.keys.create("t")).key;
    const added = await cli("sources", "add", "--name", "SQLite", "--dir", path.join(FIXTURES, "sqlite"), "--base-url", "https://www.sqlite.org", "--description", "SQLite docs", "--json");
    expect(added.code).toBe(0);
    const source = JSON.parse(added.stdout);
    expect(source).toMatchObject({ name: "SQLite", pages: 2, skipped: 1 });
    expect(source.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(source.chunks).toBeGreaterThanOrEqual(2);

    const reply = (await (await ask(key, "How do I shrink the database file with VACUUM?")).json()) as { url_references: string[] };
    expect(pageOf(reply.url_references[0])).toBe("https://www.sqlite.org/lang/vacuum.md");

    // Adding the same name again replaces it in place: same id, no duplicates.
    const again = JSON.parse((await cli("sources", "add", "--name", "SQLite", "--dir", path.join(FIXTURES, "sqlite"), "--base-url", "https://www.sqlite.org", "--json")).stdout);
    expect(again.id).toBe(source.id);
    expect(again.chunks).toBe(source.chunks);
    const listed = JSON.parse((await cli("sources", "list", "--json")).stdout);
    expect(listed).toEqual([expect.objectContaining({ id: source.id, chunks: source.chunks, description: "SQLite docs" })]);

    expect((await cli("sources", "remove", source.id)).code).toBe(0);
    const after = (await (await ask(key, "How do I shrink the database file with VACUUM?")).json()) as { url_references: string[] };
    expect(after.url_references).toEqual([]);
  });

  it("fails clearly on bad input and leaves no partial source", async () => {
    const missing = await cli("sources", "add", "--name", "X", "--dir", "/no/such/folder", "--base-url", "https://x.org/");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/does not exist/);
    const empty = await cli("sources", "add", "--name", "X", "--dir", path.join(FIXTURES, "empty-docs"), "--base-url", "https://x.org/");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/No HTML or Markdown documents/);
    const badUrl = await cli("sources", "add", "--name", "X", "--dir", path.join(FIXTURES, "pg"), "--base-url", "ftp://x");
    expect(badUrl.stderr).toMatch(/http or https/);
    const usage = await cli("sources", "add", "--name", "X");
    expect(usage.code).toBe(2);
    expect(JSON.parse((await cli("sources", "list", "--json")).stdout)).toEqual([]);
  });

  it("applies migrations with db migrate", async () => {
    const result = await cli("db", "migrate");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`up to date (${migrationFiles(MIGRATIONS_DIR).length} migrations)`);
  });
});
