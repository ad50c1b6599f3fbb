import { countTokens as countO200k } from "gpt-tokenizer";

/** Token counts with OpenAI's o200k_base encoding, for providers that report none. */
export function countTokens(text: string): number {
  if (!text) return 0;
  // Special-token strings in documentation are counted as text, not rejected.
  return countO200k(text, { allowedSpecial: "all" } as never);
}
