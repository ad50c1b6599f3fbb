import { createRequire } from "node:module";
import { lruMemo } from "./lru-memo.ts";

type Count = (text: string, options?: object) => number;
let count: Count | undefined;

/** Texts shorter than this are counted directly; longer ones by their memoised blocks. */
const BLOCK_SPLIT_MIN = 2048;
/** Blocks remembered (one per excerpt): at most ~4k excerpts, about 10 MB. */
const MEMO_SIZE = 4096;

/**
 * Where the o200k pre-tokenizer must cut: after a run of blank lines, before
 * `[` (a prompt's `[n] Title` excerpt header). No pre-token pattern spans a
 * newline followed by `[`, so counting the blocks apart gives the same total.
 */
const BLOCK_START = /\n\n(?=\[)/g;

function countDirect(text: string): number {
  count ??= (createRequire(import.meta.url)("gpt-tokenizer") as { countTokens: Count }).countTokens;
  // Special-token strings inside documentation are counted as text, not rejected.
  return count(text, { allowedSpecial: "all" });
}

const countBlock = lruMemo(MEMO_SIZE, countDirect);

/**
 * Token counts with OpenAI's o200k_base encoding, for models that report no
 * usage. The encoding tables (~70 MB in memory) load on first use only. A
 * prompt repeats the same documentation excerpts across requests, so a long
 * text is counted excerpt by excerpt and each excerpt's count is remembered.
 */
export function countTokens(text: string): number {
  if (!text) return 0;
  if (text.length < BLOCK_SPLIT_MIN) return countDirect(text);
  let total = 0;
  let start = 0;
  for (const match of text.matchAll(BLOCK_START)) {
    const end = match.index + match[0].length;
    total += countBlock(text.slice(start, end));
    start = end;
  }
  return total + countBlock(text.slice(start));
}
