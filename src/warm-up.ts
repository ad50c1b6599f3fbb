import { countTokens } from "./providers/tokenizer.ts";
import { isEnglishWord } from "./retrieval/english-words.ts";
import { everydayShare } from "./text/everyday-english.ts";
import { isSoftwareTerm } from "./text/software-terms.ts";

/**
 * Loads at start-up what would otherwise load during the first request that
 * needs it: the English word list (typo correction and source names; ~0.1 s,
 * ~20 MB), everyday English's word frequencies (~0.25 s, ~20 MB), software jargon (~30 ms) and the tokenizer's tables (usage a model does not report; ~70 MB).
 */
export function warmUp() {
  isEnglishWord("docent");
  everydayShare("docent");
  isSoftwareTerm("docent");
  countTokens("docent");
}
