import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface EvalSource {
  slug: string;
  name: string;
  debian: string;
  dir: string;
  base_url: string;
  description: string;
}

/**
 * The folder holding a source's documentation: the Debian package unpacked
 * into the cache with `apt-get download` + `dpkg -x`. Never installed (the
 * nodejs-doc install would remove Node), and never the machine's own copy,
 * which may come from another package version (nodejs ships Node 20's api/).
 */
export function documentationDir(source: EvalSource, cacheDir: string): string {
  const root = path.join(cacheDir, "root");
  const unpacked = path.join(root, source.dir);
  if (fs.existsSync(unpacked)) return unpacked;
  const debs = path.join(cacheDir, "debs");
  fs.mkdirSync(debs, { recursive: true });
  let deb = fs.readdirSync(debs).find((f) => f.startsWith(`${source.debian}_`) && f.endsWith(".deb"));
  if (!deb) {
    process.stderr.write(`eval: downloading ${source.debian}…\n`);
    try {
      execFileSync("apt-get", ["download", source.debian], { cwd: debs, stdio: ["ignore", "ignore", "pipe"] });
    } catch {
      // Package lists may be missing on a fresh machine.
      execFileSync("apt-get", ["update", "-qq"], { stdio: "ignore" });
      execFileSync("apt-get", ["download", source.debian], { cwd: debs, stdio: ["ignore", "ignore", "pipe"] });
    }
    deb = fs.readdirSync(debs).find((f) => f.startsWith(`${source.debian}_`) && f.endsWith(".deb"));
  }
  if (!deb) throw new Error(`could not download ${source.debian}`);
  execFileSync("dpkg", ["-x", path.join(debs, deb), root]);
  if (!fs.existsSync(unpacked)) throw new Error(`${source.debian} has no ${source.dir}`);
  return unpacked;
}
