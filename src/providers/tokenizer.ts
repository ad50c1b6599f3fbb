import { createRequire } from "node:module";
import { lruMemo } from "./lru-memo.ts";

type Count = (text: string, options?: object) => number;
let count: Count | undefined;

/** Texts shorter than this are counted directly; longer ones by their memoised blocks. */
const BLOCK_SPLIT_MIN = 2048;
/** Blocks remembered (one per excerpt), each of at most MEMO_MAX_CHARS: at most 64 MB, typically a few. */
const MEMO_SIZE = 4096;
const MEMO_MAX_CHARS = 8192;
/**
 * A run of letters, symbols or spaces longer than this is counted in pieces:
 * merging is quadratic in a pre-token's length (100,000 letters with no space
 * took 12 s, as many emoji 64 s). Each cut may miscount by one token.
 */
const MAX_RUN = 256;
// Starting only where a run starts, so the scan stays linear.
const LONG_RUN = new RegExp(`(?<!\\S)\\S{${MAX_RUN + 1},}|(?<!\\s)\\s{${MAX_RUN + 1},}`, "gu");
const RUN_PIECE = new RegExp(`[\\s\\S]{1,${MAX_RUN}}`, "gu");

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

/** Whether the encoding tables are in memory (loaded at a server's start: see warm-up.ts). */
export const tokenizerLoaded = () => count !== undefined;

/** The tokenizer's count, long runs cut into pieces (see MAX_RUN). */
function countRuns(text: string): number {
  let total = 0;
  let start = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    total += countDirect(text.slice(start, match.index));
    for (const [piece] of match[0].matchAll(RUN_PIECE)) total += countDirect(piece);
    start = match.index + match[0].length;
  }
  return total + countDirect(text.slice(start));
}

const countBlock = lruMemo(MEMO_SIZE, countRuns);

/**
 * Token counts with OpenAI's o200k_base encoding, for models that report no
 * usage. The encoding tables (~70 MB in memory) load on first use only. A
 * prompt repeats the same documentation excerpts across requests, so a long
 * text is counted excerpt by excerpt and each excerpt's count is remembered.
 * Linear in the text (up to ~4 µs a character for text no cache has seen):
 * callers bound how much of a caller's text they count (src/core/prompt.ts).
 */
export function countTokens(text: string): number {
  if (!text) return 0;
  if (text.length < BLOCK_SPLIT_MIN) return countRuns(text);
  let total = 0;
  let start = 0;
  const add = (block: string) => (total += block.length <= MEMO_MAX_CHARS ? countBlock(block) : countRuns(block));
  for (const match of text.matchAll(BLOCK_START)) {
    const end = match.index + match[0].length;
    add(text.slice(start, end));
    start = end;
  }
  add(text.slice(start));
  return total;
}
