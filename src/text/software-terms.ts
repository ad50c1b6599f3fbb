import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gunzipSync } from "node:zlib";

/**
 * Software jargon, as the cspell spell checker's software-terms dictionary
 * keeps it (`@cspell/dict-software-terms`, about 3,300 entries: `monorepo`,
 * `webhook`, `codebase`, `backend`, `worktree`). General word lists lag behind
 * what developers write every day; a spell checker's list for code and its
 * docs is kept up with it. Only entries written in lower case letters are
 * kept: the list writes most products capitalised (`WordPress`, `Postgres`),
 * though a few go lower case as their makers write them (`webpack`).
 */
let terms: Set<string> | undefined;

function load(): Set<string> {
  const dir = path.dirname(createRequire(import.meta.url).resolve("@cspell/dict-software-terms/cspell-ext.json"));
  const text = gunzipSync(fs.readFileSync(path.join(dir, "dict", "softwareTerms.txt.gz"))).toString("utf8");
  return new Set(text.split("\n").filter((line) => /^[a-z]+$/.test(line)));
}

/** Whether a lower-case word is software jargon (loaded on first use, ~25 ms; at a server's start, see warm-up.ts). */
export function isSoftwareTerm(word: string): boolean {
  terms ??= load();
  return terms.has(word);
}
