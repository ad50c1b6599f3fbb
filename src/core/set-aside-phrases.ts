import type { RetrievalResult } from "./retriever.ts";

/**
 * A phrase the question sets aside: what follows "without", "instead of" or
 * "rather than", to the end of its clause. It names what the asker does not
 * want ("without installing jest or mocha", "instead of stashing
 * everything"), not what the answer is about; words the documentation never
 * uses are common there (other products, the asker's own workaround).
 * Bounded: clauses end at punctuation, and at most 200 characters are kept.
 */
const SET_ASIDE = /\b(?:without|instead\s+of|rather\s+than)\s+([^.,;:?!\n]{1,200})/gi;

/** The set-aside phrases, each with the words that set it aside ("instead of" is no more the subject than what follows it). */
export const setAsideText = (question: string): string => question.match(SET_ASIDE)?.join(" ") ?? "";

/** The question without its set-aside phrases (and the words that set them aside). */
export const withoutSetAside = (question: string) => question.replace(SET_ASIDE, " ");

/**
 * The query terms only a set-aside phrase holds, read as the retriever reads
 * text (its `matches`): a page's coverage may count the rest only (the larger
 * share counts, see rankPages), so a passage that answers "how do I run tests"
 * is not judged by whether it also names the tools the asker wants to do
 * without. A term the question uses outside such a phrase too still counts.
 */
export function setAsideTerms(question: string, matches: RetrievalResult["matches"] | undefined): ReadonlySet<string> {
  const aside = setAsideText(question);
  if (!aside || !matches) return new Set();
  const elsewhere = new Set(matches(withoutSetAside(question)));
  return new Set(matches(aside).filter((term) => !elsewhere.has(term)));
}
