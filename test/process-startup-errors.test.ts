import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, ROOT, spawnServer } from "./support/spawn-server.ts";
import { tempDir } from "./support/test-server.ts";

/**
 * What an operator sees when the service cannot start: one readable line
 * starting with `docent:` on stderr and exit code 1, never a stack.
 */
describe("start-up failures", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = tempDir();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  async function startExpectingFailure(env: Record<string, string>) {
    const server = spawnServer("node", { PORT: "0", DOCENT_DEMO: "0", DATA_DIR: dataDir, ...env });
    const exit = await server.exited;
    return { exit, lines: server.stderr().trim().split("\n"), stdout: server.stdout() };
  }

  it("a port already in use", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const { exit, lines } = await startExpectingFailure({ PORT: String(port) });
      expect(exit.code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^docent: .*port ${port}.*in use`));
    } finally {
      taken.close();
    }
  });

  it("a DATA_DIR that is a file", async () => {
    const file = path.join(dataDir, "not-a-folder");
    fs.writeFileSync(file, "x");
    const { exit, lines } = await startExpectingFailure({ DATA_DIR: file });
    expect(exit.code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^docent: DATA_DIR=.*not-a-folder.* is a file/);
  });

  it("an index file that is no database", async () => {
    const dir = tempDir();
    try {
      fs.writeFileSync(path.join(dir, "index.db"), Buffer.alloc(8192, 7));
      const { exit, lines } = await startExpectingFailure({ DATA_DIR: dir });
      expect(exit.code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^docent: cannot open the index .*index\.db: file is not a database \(SQLITE_NOTADB\)\.$/);
      // Nor can a folder in its place be opened.
      fs.rmSync(path.join(dir, "index.db"));
      fs.mkdirSync(path.join(dir, "index.db"));
      const folder = await startExpectingFailure({ DATA_DIR: dir });
      expect(folder.exit.code).toBe(1);
      expect(folder.lines).toHaveLength(1);
      expect(folder.lines[0]).toMatch(/^docent: cannot open the index .*index\.db: /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a PostgreSQL database nothing answers at", async () => {
    const port = await freePort();
    const { exit, lines } = await startExpectingFailure({ DATABASE_URL: `postgresql://docent:s3cret@127.0.0.1:${port}/docent` });
    expect(exit.code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^docent: cannot reach the database at postgresql://docent:\\*+@127\\.0\\.0\\.1:${port}/docent.*ECONNREFUSED`));
    expect(lines[0]).not.toContain("s3cret");
  });

  it("the CLI says the same in one line", async () => {
    const file = path.join(dataDir, "also-not-a-folder");
    fs.writeFileSync(file, "x");
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: file };
    delete env.DATABASE_URL;
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile("npm", ["run", "-s", "cli", "--", "sources", "list"], { cwd: ROOT, env }, (error, _stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stderr }),
      ),
    );
    expect(code).toBe(1);
    expect(
      stderr
        .trim()
        .split("\n")
        .filter((l) => !l.startsWith("npm warn")),
    ).toEqual([expect.stringMatching(/^docent: DATA_DIR=.* is a file/)]);
  });
});
