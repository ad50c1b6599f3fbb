// `npm run build`: compiles src/ to dist/ with tsc (tsconfig.build.json), then
// copies the files src/ serves or reads that are not TypeScript (the
// playground's page, scripts and styles…) to the same place under dist/, so
// every path the code resolves from its own folder holds there too. Files
// found through the project root (README.md, docs/, prisma/, node_modules/)
// are one level up from src/ and from dist/ alike.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const out = path.resolve(root, process.argv[2] ?? "dist");
fs.rmSync(out, { recursive: true, force: true });
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.build.json"), "--outDir", out], { stdio: "inherit" });

let copied = 0;
for (const entry of fs.readdirSync(path.join(root, "src"), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || entry.name.endsWith(".ts")) continue;
  const from = path.join(entry.parentPath, entry.name);
  const to = path.join(out, path.relative(path.join(root, "src"), from));
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  copied++;
}
console.log(
  `docent: built ${path.relative(root, out) || "."}/ (${copied} asset files copied); run it with npm run start:prod (node ${path.relative(root, out)}/main.js, with the start scripts' heap flags)`,
);
