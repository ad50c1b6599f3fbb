import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gunzipSync } from "node:zlib";

/**
 * Software jargon, as the cspell spell checker's dictionaries keep it: the
 * lower-case entries of its software-terms dictionary (`monorepo`, `webhook`,
 * `codebase`, `worktree`), less every name its product dictionaries list
 * (software tools, popular npm packages, companies), since a few products go
 * lower case as their makers write them (`webpack`, `lodash`, `memcached`).
 * General word lists lag behind what developers write every day; a spell
 * checker's lists for code and its docs are kept up with it.
 */
let terms: Set<string> | undefined;

const require = createRequire(import.meta.url);
/** The lines of one of a cspell dictionary package's word files (plain or gzipped), comments and blanks left out. */
function lines(pkg: string, file: string): string[] {
  const raw = fs.readFileSync(path.join(path.dirname(require.resolve(`${pkg}/cspell-ext.json`)), "dict", file));
  const text = file.endsWith(".gz") ? gunzipSync(raw).toString("utf8") : raw.toString("utf8");
  return text.split("\n").filter((line) => line && !line.startsWith("#"));
}

function load(): Set<string> {
  const products = new Set(
    [
      ...lines("@cspell/dict-software-terms", "software-tools.txt"),
      ...lines("@cspell/dict-npm", "npm.txt"),
      ...lines("@cspell/dict-companies", "companies.txt"),
    ].map((name) => name.toLowerCase()),
  );
  return new Set(lines("@cspell/dict-software-terms", "softwareTerms.txt.gz").filter((line) => /^[a-z]+$/.test(line) && !products.has(line)));
}

/** Whether a lower-case word is software jargon and no product (loaded on first use, ~30 ms; at a server's start, see warm-up.ts). */
export function isSoftwareTerm(word: string): boolean {
  terms ??= load();
  return terms.has(word);
}
