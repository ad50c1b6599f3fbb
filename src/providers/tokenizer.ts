import { createRequire } from "node:module";

type Count = (text: string, options?: object) => number;
let count: Count | undefined;

/**
 * Token counts with OpenAI's o200k_base encoding, for models that report no
 * usage. The encoding tables (~70 MB in memory) load on first use only.
 */
export function countTokens(text: string): number {
  if (!text) return 0;
  count ??= (createRequire(import.meta.url)("gpt-tokenizer") as { countTokens: Count }).countTokens;
  // Special-token strings inside documentation are counted as text, not rejected.
  return count(text, { allowedSpecial: "all" });
}
