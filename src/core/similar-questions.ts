import { contentTerms, type TextAnalyzer } from "./text-analyzer.ts";

/**
 * Two wordings are taken for the same question when the Jaccard similarity
 * of their stemmed content words (the one analyzer search uses) is at
 * least this: half of all the words either uses, shared. Measured on the 86
 * questions of the three eval sets (3,655 pairs; `npm run -s bench --
 * similar-questions`), whose later sets reword some earlier questions,
 * labelled by hand: at 0.5, 10 pairs merge, 9 of them rewordings ("find which
 * commit introduced a bug" / "find the commit that introduced a bug") and 1
 * not ("How are dates and times stored?" / "How do I get the current date and
 * time?"); 2 rewordings stay apart (0.40, 0.33). At 0.4, 4 more pairs merge,
 * 3 of them wrongly.
 */
export const DEFAULT_SIMILARITY = 0.5;

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}

/** A question's first 64 content terms: enough to compare wordings, bounded for stored questions of any length. */
export const questionTerms = (analyzer: TextAnalyzer, text: string): Set<string> => new Set(contentTerms(analyzer, text, 64));

/**
 * Groups texts by similar wording, in order: each joins the group whose first
 * text (its leader) it is most similar to, at `threshold` or above, or starts
 * a new one. Comparing with leaders only keeps a chain of small steps from
 * merging unrelated questions. Returns groups of indices into `texts`.
 */
export function groupSimilar(analyzer: TextAnalyzer, texts: readonly string[], threshold = DEFAULT_SIMILARITY): number[][] {
  const groups: Array<{ leader: Set<string>; members: number[] }> = [];
  texts.forEach((text, index) => {
    const terms = questionTerms(analyzer, text);
    let best: (typeof groups)[number] | undefined;
    let bestScore = threshold;
    for (const group of groups) {
      const score = jaccard(terms, group.leader);
      if (score >= bestScore && (!best || score > bestScore)) {
        best = group;
        bestScore = score;
      }
    }
    if (best) best.members.push(index);
    else groups.push({ leader: terms, members: [index] });
  });
  return groups.map((g) => g.members);
}
