import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../src/config.ts";
import { MIGRATIONS_DIR } from "../src/db/migrate.ts";
import { migrationFiles } from "../src/db/migration-files.ts";
import { silentLogger } from "../src/logging/logger.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { runCliProcess } from "./support/cli-process.ts";
import { FIXTURES, pageOf, tempDir } from "./support/test-server.ts";

/** The CLI as a user runs it (its own process, as `npm run -s cli -- …` starts it), against a server that keeps running. */
describe("CLI", () => {
  let dataDir: string;
  let server: RunningServer;
  const cli = (...args: string[]) => runCliProcess({ DATA_DIR: dataDir }, ...args);
  const withinASecond = { timeout: 1000, interval: 50 };
  const ask = (key: string, content: string) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content }] }),
    });

  beforeAll(async () => {
    dataDir = tempDir();
    // The server sees the CLI's changes when it next looks (every REFRESH_INTERVAL_MS): the tests allow a second.
    server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "0", REFRESH_INTERVAL_MS: "200" }), {
      log: () => {},
      logger: silentLogger(),
    });
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
    await expect.poll(async () => (await ask(key.key, "vacuum")).status, withinASecond).toBe(200);

    const list = await cli("keys", "list");
    expect(list.stdout).toContain(key.id);
    expect(list.stdout).not.toContain(key.key);
    const db = new Database(path.join(dataDir, "docent.db"), { readonly: true });
    const dump = JSON.stringify(db.prepare("SELECT * FROM ApiKey").all());
    db.close();
    expect(dump).not.toContain(key.key);
    expect(dump).toMatch(/[0-9a-f]{64}/);

    expect((await cli("keys", "revoke", key.id)).code).toBe(0);
    await expect.poll(async () => (await ask(key.key, "vacuum")).status, withinASecond).toBe(401);
    expect((await cli("keys", "revoke", key.id)).code).not.toBe(0);
  });

  it("creates keys limited to sources and expiring; list shows scope, expiry and status; bad values create nothing", async () => {
    const source = JSON.parse(
      (await cli("sources", "add", "--name", "Scoped PG", "--dir", path.join(FIXTURES, "pg"), "--base-url", "https://www.postgresql.org/docs/15/", "--json"))
        .stdout,
    );
    const errorLines = (stderr: string) => stderr.split("\n").filter((l) => l && !l.startsWith("npm warn"));
    const before = (await server.services.keys.list()).length;
    try {
      // Each CLI run starts a process: independent ones run side by side.
      const started = Date.now();
      const [scopedRun, byNameRun, openRun, ...refused] = await Promise.all([
        cli("keys", "create", "--name", "scoped", "--sources", source.id, "--expires-in", "30d", "--json"),
        cli("keys", "create", "--name", "by-name", "--sources", "Scoped PG", "--expires-in", "90m", "--json"),
        cli("keys", "create", "--name", "open", "--json"),
        cli("keys", "create", "--name", "bad", "--sources", source.id, "--expires-in", "1y"),
        cli("keys", "create", "--name", "bad", "--expires-in=-5d"),
        cli("keys", "create", "--name", "bad", "--sources", `${source.id},00000000-0000-4000-8000-000000000000`),
        cli("keys", "create", "--name", "bad", "--sources", ","),
      ]);
      const finished = Date.now();
      const [scoped, byName, open] = [scopedRun, byNameRun, openRun].map((r) => JSON.parse(r!.stdout));
      expect(scoped).toMatchObject({ name: "scoped", source_ids: [source.id] });
      expect(Date.parse(scoped.expires_at) - started).toBeGreaterThanOrEqual(30 * 86_400_000);
      expect(Date.parse(scoped.expires_at) - finished).toBeLessThanOrEqual(30 * 86_400_000);
      // A name works as well as an id; the key is stored with the id.
      expect(byName.source_ids).toEqual([source.id]);
      expect(Date.parse(byName.expires_at) - started).toBeGreaterThanOrEqual(90 * 60_000);
      expect(Date.parse(byName.expires_at) - finished).toBeLessThanOrEqual(90 * 60_000);
      expect(open).toMatchObject({ source_ids: null, expires_at: null });
      await expect.poll(async () => (await ask(scoped.key, "vacuum")).status, withinASecond).toBe(200);

      expect(refused.map((r) => r.code)).toEqual([2, 2, 2, 2]);
      expect(errorLines(refused[0]!.stderr)).toEqual([
        "docent: --expires-in '1y' is not a duration: use a whole number of minutes, hours or days, like 90m, 12h or 30d (at most 36500d).",
      ]);
      expect(errorLines(refused[1]!.stderr)).toEqual([expect.stringMatching(/^docent: --expires-in '-5d' is not a duration/)]);
      expect(errorLines(refused[2]!.stderr)).toEqual([
        "docent: Unknown source '00000000-0000-4000-8000-000000000000': no key created (see sources list for ids).",
      ]);
      expect(errorLines(refused[3]!.stderr)).toEqual([expect.stringMatching(/^docent: --sources needs at least one source id/)]);
      expect((await server.services.keys.list()).length).toBe(before + 3);

      await server.services.keys.revoke(byName.id);
      const [json, text] = await Promise.all([cli("keys", "list", "--json"), cli("keys", "list")]);
      const listed: Array<{ id: string }> = JSON.parse(json.stdout);
      expect(listed.find((k) => k.id === scoped.id)).toMatchObject({ source_ids: [source.id], expires_at: scoped.expires_at, status: "active" });
      expect(listed.find((k) => k.id === byName.id)).toMatchObject({ source_ids: [source.id], status: "revoked" });
      expect(listed.find((k) => k.id === open.id)).toMatchObject({ source_ids: null, expires_at: null, status: "active" });
      const rows = text.stdout.split("\n");
      expect(rows[0]).toMatch(/SCOPE\s+CREATED\s+EXPIRES\s+LAST_USED\s+STATUS/);
      const scopedRow = rows.find((l) => l.startsWith(scoped.id))!;
      expect(scopedRow).toContain("Scoped PG");
      expect(scopedRow).toContain(`${scoped.expires_at.slice(0, 16).replace("T", " ")}Z`);
      expect(scopedRow).toMatch(/ active$/);
      expect(rows.find((l) => l.startsWith(byName.id))).toMatch(/ revoked$/);
      expect(rows.find((l) => l.startsWith(open.id))).toMatch(/all sources.*never.* active$/);

      // A removed source stays in the key's scope (it never widens to every source), shown as removed.
      expect((await cli("sources", "remove", source.id)).code).toBe(0);
      expect((await cli("keys", "list")).stdout.split("\n").find((l) => l.startsWith(scoped.id))).toContain(`${source.id} (removed)`);
    } finally {
      await server.services.catalog.remove(source.id);
    }
  }, 120_000);

  it("adds and removes sources that the running server serves without a restart", async () => {
    const key = (await server.services.keys.create("t")).key;
    const added = await cli(
      "sources",
      "add",
      "--name",
      "SQLite",
      "--dir",
      path.join(FIXTURES, "sqlite"),
      "--base-url",
      "https://www.sqlite.org",
      "--description",
      "SQLite docs",
      "--json",
    );
    expect(added.code).toBe(0);
    const source = JSON.parse(added.stdout);
    expect(source).toMatchObject({ name: "SQLite", pages: 2, skipped: 1 });
    expect(source.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(source.chunks).toBeGreaterThanOrEqual(2);

    const references = async () =>
      ((await (await ask(key, "How do I shrink the database file with VACUUM?")).json()) as { url_references: string[] }).url_references;
    await expect.poll(async () => pageOf((await references())[0]), withinASecond).toBe("https://www.sqlite.org/lang/vacuum.md");

    // Adding the same name again replaces it in place: same id, no duplicates.
    const again = JSON.parse(
      (await cli("sources", "add", "--name", "SQLite", "--dir", path.join(FIXTURES, "sqlite"), "--base-url", "https://www.sqlite.org", "--json")).stdout,
    );
    expect(again.id).toBe(source.id);
    expect(again.chunks).toBe(source.chunks);
    // …and says so.
    const updated = await cli("sources", "add", "--name", "SQLite", "--dir", path.join(FIXTURES, "sqlite"), "--base-url", "https://www.sqlite.org");
    expect(updated.stdout).toMatch(new RegExp(`^Updated "SQLite" \\(id ${source.id}\\): 0 added, 0 changed, 0 removed`));
    const listed = JSON.parse((await cli("sources", "list", "--json")).stdout);
    expect(listed).toEqual([expect.objectContaining({ id: source.id, chunks: source.chunks, description: "SQLite docs" })]);

    expect((await cli("sources", "remove", source.id)).code).toBe(0);
    await expect.poll(references, withinASecond).toEqual([]);
    // Several CLI processes of ~2 s each: 14 s on an idle machine, over 30 s on a loaded one.
  }, 120_000);

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
    // A crawl's flags are checked before anything is fetched: one line naming the flag, no stack trace.
    for (const [flags, says] of [
      [["--url", "notaurl"], /--url must be an http or https URL; got 'notaurl'/],
      [["--url", "ftp://x/"], /--url must be an http or https URL/],
      [["--url", "https://x.org/", "--sitemap", "notaurl"], /--sitemap must be an http or https URL/],
      [["--url", "https://x.org/", "--max-pages", "abc"], /--max-pages must be a whole number of at least 1; got 'abc'/],
      [["--url", "https://x.org/", "--max-pages", "0"], /--max-pages must be a whole number/],
    ] as const) {
      const bad = await cli("sources", "add", "--name", "X", ...flags);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(says);
      expect(bad.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    }
    expect((await cli("sources", "sync")).code).toBe(2);
    expect(JSON.parse((await cli("sources", "list", "--json")).stdout)).toEqual([]);
    // Eleven CLI processes one after another: on a busy 2-core machine each start can take 3 s.
  }, 90_000);

  it("skips a page no parser can read (HTML nested 10,000 deep) and ingests the rest of the folder", async () => {
    const folder = tempDir();
    fs.writeFileSync(
      path.join(folder, "deep.html"),
      `<html><body><main><h1>Deep</h1>${"<div>".repeat(10_000)}text${"</div>".repeat(10_000)}</main></body></html>`,
    );
    fs.writeFileSync(path.join(folder, "ok.html"), "<html><body><main><h1>Fine</h1><p>A page any parser reads, about vacuum.</p></main></body></html>");
    const added = await cli("sources", "add", "--name", "Deep", "--dir", folder, "--base-url", "https://deep.example/", "--json");
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ name: "Deep", pages: 1 });
    expect((await cli("sources", "remove", JSON.parse(added.stdout).id)).code).toBe(0);
  });

  it("sources sync --all syncs each source, records a failure without naming the folder, and exits 1 if any failed", async () => {
    const folder = path.join(tempDir(), "gone");
    fs.cpSync(path.join(FIXTURES, "pg"), folder, { recursive: true });
    const gone = JSON.parse(
      (await cli("sources", "add", "--name", "Gone", "--dir", folder, "--base-url", "https://www.postgresql.org/docs/15/", "--json")).stdout,
    );
    const kept = JSON.parse(
      (await cli("sources", "add", "--name", "Kept", "--dir", path.join(FIXTURES, "sqlite"), "--base-url", "https://www.sqlite.org/", "--json")).stdout,
    );
    fs.rmSync(folder, { recursive: true });
    // The server sees the CLI's writes at its next look (REFRESH_INTERVAL_MS is 200 ms here).
    const syncedBefore = await vi.waitFor(async () => {
      const at = (await server.services.catalog.get(gone.id))?.lastSyncedAt;
      expect(at).toBeInstanceOf(Date);
      return at;
    });
    try {
      const all = await cli("sources", "sync", "--all", "--json");
      expect(all.code).toBe(1);
      const results = JSON.parse(all.stdout);
      expect(results).toEqual([
        expect.objectContaining({
          id: gone.id,
          status: "failed",
          error: { code: expect.any(String), message: expect.stringContaining("the source's folder") },
        }),
        expect.objectContaining({ id: kept.id, status: "ok", unchanged: 2 }),
      ]);
      expect(all.stdout).not.toContain(folder);
      const source = await vi.waitFor(async () => {
        const seen = (await server.services.catalog.get(gone.id))!;
        expect(seen.lastSync).toMatchObject({ status: "failed", trigger: "manual" });
        return seen;
      });
      // A failed sync leaves last_synced_at where the last good one put it.
      expect(source.lastSyncedAt).toEqual(syncedBefore);
    } finally {
      await cli("sources", "remove", gone.id);
      await cli("sources", "remove", kept.id);
    }
  }, 120_000);

  // util-linux's `script` (Debian's bsdutils, always installed there) gives the CLI a terminal.
  it.skipIf(!fs.existsSync("/usr/bin/script"))(
    "ends its progress line on a terminal before the summary, also when it never reached a total",
    async () => {
      // Both stdout and stderr on the terminal, as for a person running it.
      const folder = path.join(tempDir(), "pg");
      fs.cpSync(path.join(FIXTURES, "pg"), folder, { recursive: true });
      const command = `${process.execPath} --import tsx src/cli/main.ts sources add --name Terminal --dir ${folder} --base-url https://t.example/`;
      const { stdout } = await promisify(execFile)("script", ["-qec", command, "/dev/null"], {
        cwd: path.resolve(import.meta.dirname, ".."),
        env: { ...process.env, DATA_DIR: dataDir },
      });
      const lines = stdout.replace(/\r\n/g, "\n").split("\n");
      expect(lines.some((line) => line.includes("documents read…"))).toBe(true);
      expect(lines.some((line) => line.startsWith('Added "Terminal"'))).toBe(true);
      const id = /\(id ([0-9a-f-]{36})\)/.exec(stdout)![1]!;
      await cli("sources", "remove", id);
    },
    60_000,
  );

  it("applies migrations with db migrate", async () => {
    const result = await cli("db", "migrate");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`up to date (${migrationFiles(MIGRATIONS_DIR).length} migrations)`);
  });
});
