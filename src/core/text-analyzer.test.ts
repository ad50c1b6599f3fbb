import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { englishAnalyzer as analyzer } from "../text/english-analyzer.ts";
import { contentTerms, makeTermMatcher, queryWords, termCounts } from "./text-analyzer.ts";

describe("the one analyzer", () => {
  it("reads words as the index does: letters and digits, lower-cased, accents removed, Porter stems", () => {
    expect(analyzer.words("Crème brûlée in Node.js, utf-8!")).toEqual(["creme", "brulee", "in", "node", "js", "utf", "8"]);
    expect(["indexes", "indexing", "physically", "physical"].map(analyzer.term)).toEqual(["index", "index", "physic", "physic"]);
  });

  it("gives questions, coverage and answers the same terms", () => {
    expect(queryWords(analyzer, "How do I rebuild the indexes of a café?")).toEqual(["rebuild", "indexes", "cafe"]);
    expect(contentTerms(analyzer, "How do I rebuild the indexes of a café?")).toEqual(["rebuild", "index", "cafe"]);
    const matches = makeTermMatcher(analyzer, contentTerms(analyzer, "rebuild indexes café uses"));
    expect(matches("REINDEX rebuilds an index. The Café uses it.").sort()).toEqual(["cafe", "index", "rebuild", "us"]);
  });

  it("counts how often a text says each term, as a question's words are read (stop words never)", () => {
    const text = "Which tool uses the least memory? I used one, I am using it now, let us use another: memory, memories.";
    // "use", "used", "using" and "us" are stop words that stem as "uses" does: only "uses" counts.
    expect(termCounts(analyzer, text, ["us", "memori", "tool", "vacuum"])).toEqual([1, 3, 1, 0]);
  });

  it("reads what a contraction leaves as function words, not as the question's subject", () => {
    expect(queryWords(analyzer, "the btree index doesn't help and isn't used, why didn't it?")).toEqual(["btree", "index", "help"]);
  });

  it("is a port: the core names no stemmer or analyzer implementation", () => {
    const core = path.resolve(import.meta.dirname);
    for (const file of fs.readdirSync(core).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const source = fs.readFileSync(path.join(core, file), "utf8");
      expect(source, file).not.toMatch(/from "(stemmer|\.\.\/text\/[^"]*)"/);
    }
  });
});
