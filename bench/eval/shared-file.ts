import fs from "node:fs";
import path from "node:path";

/**
 * A file of the team's shared eval folder (`../shared/eval/`, beside the
 * checkout: the dev questions, the eval sources, the plain-BM25 floor), or,
 * where that folder is absent (a clone anywhere else), the copy kept in
 * `bench/eval/shared/` (taken 2026-11-26), so the figures can be reproduced
 * from the repository alone. The shared folder is the authority where it exists.
 */
export function sharedEvalFile(name: "dev.jsonl" | "sources.json" | "plain-bm25.mjs"): string {
  const shared = path.resolve(import.meta.dirname, "../../../shared/eval", name);
  return fs.existsSync(shared) ? shared : path.resolve(import.meta.dirname, "shared", name);
}
