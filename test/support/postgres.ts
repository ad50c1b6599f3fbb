import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A throw-away PostgreSQL cluster for tests: initdb in a temp dir, started on
 * a free loopback port, dropped afterwards. PostgreSQL refuses to run as
 * root, so as root it runs as the `postgres` user. Null when the server
 * binaries are not installed.
 */
export interface TestPostgres {
  url: string;
  stop(): void;
}

function binDir(): string | null {
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    if (fs.existsSync(path.join(dir, "initdb"))) return dir;
  } catch {
    // no pg_config
  }
  const debian = fs.existsSync("/usr/lib/postgresql")
    ? fs
        .readdirSync("/usr/lib/postgresql")
        .sort()
        .reverse()
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  return debian.find((d) => fs.existsSync(path.join(d, "initdb"))) ?? null;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

export async function startPostgres(): Promise<TestPostgres | null> {
  const bin = binDir();
  if (!bin) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docent-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const run = (cmd: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : path.join(bin, cmd), asRoot ? ["-u", "postgres", "--", path.join(bin, cmd), ...args] : args, { stdio: "pipe" });
  const port = await freePort();
  run("initdb", ["-D", path.join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  run("pg_ctl", [
    "-D",
    path.join(dir, "data"),
    "-l",
    path.join(dir, "log"),
    "-w",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    "start",
  ]);
  run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "docent"]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/docent`,
    stop() {
      try {
        run("pg_ctl", ["-D", path.join(dir, "data"), "-m", "immediate", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
