import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { ConfigSchema } from "../../src/config.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The service as a service manager runs it: `npm start` (or the node command
 * it runs) in its own process, with its environment given and every other
 * docent setting of the caller's environment left out.
 */
export interface SpawnedServer {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the base URL once the service prints that it is serving. */
  ready: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every process below the spawned one, as listed now. */
  descendants(): number[];
  /** Kills (SIGKILL) the spawned process and every process ever seen below it, orphaned or not. */
  killAll(): void;
}

export function spawnServer(how: "npm" | "node", env: Record<string, string>): SpawnedServer {
  const cleanEnv = { ...process.env };
  for (const key of Object.keys(ConfigSchema.shape)) delete cleanEnv[key];
  const [command, args] = how === "npm" ? ["npm", ["start"]] : [process.execPath, ["--import", "tsx", "src/main.ts"]];
  const child = spawn(command, args as string[], { cwd: ROOT, env: { ...cleanEnv, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /docent: serving (http:\/\/\S+)\/v1/.exec(out);
      if (!match) return;
      descendants();
      resolve(match[1]!);
    };
    child.stdout!.on("data", check);
    void exited.then(({ code, signal }) => reject(new Error(`the server exited (${code ?? signal}) before serving:\n${out}\n${err}`)));
  });
  ready.catch(() => {}); // a caller expecting a failed start never awaits it
  const seen = new Set<number>();
  const descendants = () => {
    const now = descendantsOf(child.pid!);
    for (const pid of now) seen.add(pid);
    return now;
  };
  const killAll = () => {
    for (const pid of [child.pid!, ...seen]) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  };
  return { child, pid: child.pid!, stdout: () => out, stderr: () => err, ready, exited, descendants, killAll };
}

/** Processes below `pid` (children, grandchildren…), from `ps`. */
export function descendantsOf(pid: number): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The processes of `pids` still running after up to `ms` (a helper such as
 * tsx's esbuild service notices its parent is gone a moment later), with
 * their command lines.
 */
export async function stillRunning(pids: number[], ms = 5000): Promise<string[]> {
  const deadline = Date.now() + ms;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return pids.filter(isAlive).map((pid) => {
    try {
      return `${pid} ${execFileSync("ps", ["-o", "stat=,args=", "-p", String(pid)], { encoding: "utf8" }).trim()}`;
    } catch {
      return `${pid}`;
    }
  });
}

/** True when nothing accepts connections on the URL's port. */
export const refusesConnections = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
