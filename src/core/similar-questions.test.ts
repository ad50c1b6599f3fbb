import { describe, expect, it } from "vitest";
import { englishAnalyzer as analyzer } from "../text/english-analyzer.ts";
import { groupSimilar, jaccard, questionTerms } from "./similar-questions.ts";

describe("similar questions", () => {
  it("reads wordings through the search analyzer: stop words, case and plurals do not matter", () => {
    expect(
      jaccard(
        questionTerms(analyzer, "How do I find which commit introduced a bug?"),
        questionTerms(analyzer, "How do I find the commit that introduced a bug?"),
      ),
    ).toBe(1);
    expect(
      jaccard(
        questionTerms(analyzer, "What locks does CLUSTER take on partitioned tables?"),
        questionTerms(analyzer, "which lock does cluster take on a partitioned table"),
      ),
    ).toBe(1);
    expect(jaccard(questionTerms(analyzer, "How do I vacuum a table?"), questionTerms(analyzer, "What does VACUUM FULL do?"))).toBeCloseTo(1 / 3);
  });

  it("groups in order, each text with the group whose first text it is most like, at the threshold or above", () => {
    const texts = [
      "How do I rename a column in a table?", // 0
      "How many moons does Jupiter have?", // 1
      "How do I rename a column of an existing SQLite table?", // 2: 0.6 with 0
      "how many moons has jupiter got", // 3
      "How do I drop a column?", // 4: 1/4 with 0
    ];
    expect(groupSimilar(analyzer, texts)).toEqual([[0, 2], [1, 3], [4]]);
    expect(groupSimilar(analyzer, texts, 0.25)).toEqual([
      [0, 2, 4],
      [1, 3],
    ]);
    expect(groupSimilar(analyzer, [])).toEqual([]);
  });

  it("compares with a group's first text only, so small steps do not chain unrelated questions", () => {
    // The second is like the first (0.5) and the third like the second (0.5), but the third shares one word in five with the first.
    expect(groupSimilar(analyzer, ["alpha beta gamma", "beta gamma delta", "gamma delta epsilon"])).toEqual([[0, 1], [2]]);
  });
});
