import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ConfigSchema } from "../../src/config.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The node flags `npm run start:prod` runs docent with (package.json), so benches measure the service as it runs. */
export function nodeFlags(): string[] {
  const script: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts["start:prod"];
  return script.split(/\s+/).filter((word) => word.startsWith("--"));
}

export interface Child {
  child: ChildProcess;
  /** The base URL it serves, once ready. */
  url: string;
  output(): string;
  /** Resident set size now and at its peak (VmHWM), in MB, from /proc. */
  rss(): { now: number; peak: number };
  /** CPU time (user + system, all its threads) used so far, in ms, from /proc. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** Starts a process and resolves when its output matches `ready` (group 1: the URL, or a port). */
export function startChild(
  command: string,
  args: string[],
  { env = {}, ready, cwd = ROOT }: { env?: Record<string, string>; ready: RegExp; cwd?: string },
): Promise<Child> {
  const clean = { ...process.env };
  for (const key of Object.keys(ConfigSchema.shape)) delete clean[key];
  const child = spawn(command, args, { cwd, env: { ...clean, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const match = ready.exec(out);
      if (!match) return;
      child.stdout!.off("data", onData);
      const url = /^\d+$/.test(match[1]!) ? `http://127.0.0.1:${match[1]}` : match[1]!;
      resolve({
        child,
        url,
        output: () => out,
        rss: () => {
          const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
          const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
          return { now: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
        },
        cpuMs: () => {
          // Fields 14 and 15 (utime, stime) after the command's closing parenthesis, in clock ticks (USER_HZ, 100 on Linux).
          const fields = fs.readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
          return (Number(fields[11]) + Number(fields[12])) * 10;
        },
        async stop() {
          if (child.exitCode === null) child.kill("SIGTERM");
          await exited;
        },
      });
    };
    child.stdout!.on("data", onData);
    child.stdout!.on("data", () => {});
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.once("exit", (code) => reject(new Error(`${command} ${args.join(" ")} exited (${code}) before it was ready:\n${out}`)));
  });
}
