import { describe, expect, it } from "vitest";
import { COVERAGE_WEIGHT_CAP, rankPages, referenceUrl } from "./rank-pages.ts";
import type { QueryTerm, RetrievedChunk } from "./retriever.ts";

const term = (t: string, weight: number): QueryTerm => ({ term: t, text: t, weight });
const chunk = (url: string, matched: string[], score = 1): RetrievedChunk => ({
  sourceId: "s",
  url,
  anchor: "",
  title: "",
  section: "",
  text: "",
  score,
  matched,
  titleMatched: [],
  headingMatched: [],
});
/** The coverage of one page whose one passage holds `held` of the question's `terms`. */
const coverageOf = (terms: QueryTerm[], held: readonly QueryTerm[]) =>
  rankPages({
    terms,
    chunks: [
      chunk(
        "a",
        held.map((t) => t.term),
      ),
    ],
  })[0]!.coverage;

describe("rankPages coverage", () => {
  it("is the plain share of a question whose weight is under the cap", () => {
    const terms = [term("refresh", 6), term("materialized", 8), term("view", 4)];
    expect(coverageOf(terms, [terms[0]!, terms[2]!])).toBeCloseTo(10 / 18);
  });

  it("counts a long question's weight only up to COVERAGE_WEIGHT_CAP times its heaviest word", () => {
    // Four telling words held together, among a story of words the documentation lacks (weight 10 each).
    const asked = [term("refresh", 6), term("materialized", 8), term("view", 4), term("concurrently", 7)];
    const story = ["dashboard", "minutes", "hangs", "rebuild", "readers"].map((t) => term(t, 10));
    const terms = [...asked, ...story];
    const held = 6 + 8 + 4 + 7;
    expect(held / (held + 50)).toBeLessThan(0.55); // the plain share would refuse it
    expect(coverageOf(terms, asked)).toBeCloseTo(held / (COVERAGE_WEIGHT_CAP * 10));
    // Never above the whole question.
    expect(coverageOf(terms, terms)).toBe(1);
  });

  it("ranks by the plain share, whatever the cap", () => {
    // Ten words of weight 10: both pages hold the capped 40 (coverage 1), but y holds more of the question.
    const terms = "abcdefghij".split("").map((t) => term(t, 10));
    const pages = rankPages({ terms, chunks: [chunk("x", ["a", "b", "c", "d", "e"]), chunk("y", ["a", "b", "c", "d", "e", "f", "g"])] });
    expect(pages.map((p) => p.coverage)).toEqual([1, 1]);
    expect(pages.map((p) => p.url)).toEqual(["y", "x"]);
  });

  it("leaves the terms set aside out of coverage, not out of ranking", () => {
    // "run unit tests without installing jest or mocha": the tools done without are words no page holds, weighing most.
    const terms = [term("run", 2), term("unit", 4), term("test", 3), term("jest", 12), term("mocha", 12)];
    const asked = [terms[0]!, terms[1]!, terms[2]!];
    expect(coverageOf(terms, asked)).toBeCloseTo(9 / 33);
    const aside = new Set(["jest", "mocha"]);
    const [page] = rankPages({ terms, chunks: [chunk("a", ["run", "unit", "test"])] }, { aside });
    expect(page!.coverage).toBeCloseTo(1);
    // A phrase set aside may be what the passage answers ("keeps working without recompiling"): never a smaller share.
    const [answering] = rankPages({ terms, chunks: [chunk("b", ["jest", "mocha"])] }, { aside });
    expect(answering!.coverage).toBeCloseTo(24 / 33);
    // Ranking still counts every term: the page's score is the same with or without the aside.
    expect(page!.score).toBeCloseTo(rankPages({ terms, chunks: [chunk("a", ["run", "unit", "test"])] })[0]!.score);
  });
});

describe("referenceUrl", () => {
  it("percent-encodes what a URL fragment may not hold, and leaves an ordinary anchor as it is", () => {
    expect(referenceUrl({ url: "https://x/a.html", anchor: "sessions" })).toBe("https://x/a.html#sessions");
    expect(referenceUrl({ url: "https://x/a.html", anchor: "" })).toBe("https://x/a.html");
    expect(referenceUrl({ url: "https://x/a.html", anchor: 'zf" onmouseover="alert(1)' })).toBe("https://x/a.html#zf%22%20onmouseover=%22alert%281%29");
    // Markdown's syntax and what is not ASCII: a heading id that would write a link after a references block's URL.
    expect(referenceUrl({ url: "https://x/a.html", anchor: "a][[2]](https://evil.example/p)" })).toBe(
      "https://x/a.html#a%5D%5B%5B2%5D%5D%28https://evil.example/p%29",
    );
    expect(referenceUrl({ url: "https://x/a.html", anchor: "a\u00a0[b]\\é" })).toBe("https://x/a.html#a%C2%A0%5Bb%5D%5C%C3%A9");
    expect(referenceUrl({ url: "https://x/a.html", anchor: "a<b>`c\u0001" })).toBe("https://x/a.html#a%3Cb%3E%60c%01");
  });
});
