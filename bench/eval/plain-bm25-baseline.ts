import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sharedEvalFile } from "./shared-file.ts";

/** The shared plain-BM25 floor (`../shared/eval/plain-bm25.mjs`), run beside each set so docent's gain shows. */
export const PLAIN_BM25_SCRIPT = sharedEvalFile("plain-bm25.mjs");

/** The baseline's one summary line for a question file, or why it could not run. */
export function plainBm25(questionsFile: string, { sources, cache, script = PLAIN_BM25_SCRIPT }: { sources: string; cache: string; script?: string }): string {
  if (!fs.existsSync(script)) return `(plain BM25 baseline not found at ${script})`;
  const run = spawnSync(process.execPath, [script, "--questions", questionsFile, "--sources", sources, "--cache", cache], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    encoding: "utf8",
  });
  if (run.status !== 0) return `(plain BM25 failed: ${(run.stderr || run.stdout).trim().split("\n").at(-1)})`;
  return run.stdout.trim().split("\n").at(-1) ?? "";
}
