import fs from "node:fs";
import { StartupError, systemReason } from "./startup-error.ts";

/**
 * Makes sure DATA_DIR is a folder the service can write to, creating it if
 * needed, so a misconfigured path is reported as such rather than as the
 * first library that trips over it.
 */
export function ensureDataDir(dir: string): void {
  const at = `DATA_DIR=${dir}`;
  if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory()) throw new StartupError(`${at} is a file, not a folder; point DATA_DIR at a folder.`);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOTDIR") throw new StartupError(`${at} cannot be created: a part of its path is a file.`, { cause: error });
    throw new StartupError(`${at} cannot be created: ${systemReason(error) ?? (error as Error).message}.`, { cause: error });
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    throw new StartupError(`${at} is not writable: ${systemReason(error) ?? (error as Error).message}.`, { cause: error });
  }
}
