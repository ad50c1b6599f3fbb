import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Runs the CLI with `…args` as its own process with `env` added, as `npm run cli -- …args`
 * runs it (`tsx src/cli/main.ts`), without npm's own start (half a second each; the npm
 * path itself is tested in process-startup-errors.test.ts). A non-zero exit is returned, not thrown.
 */
export async function runCliProcess(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
