import { describe, expect, it } from "vitest";
import { setAsideTerms, setAsideText } from "./set-aside-phrases.ts";

/** A retriever's reading of text for the test: lower-cased words. */
const matches = (text: string) => text.toLowerCase().match(/[a-z]+/g) ?? [];

describe("set-aside phrases", () => {
  it("reads what follows without, instead of and rather than, to the end of its clause", () => {
    expect(setAsideText("Can I write and run unit tests in Node.js 18 without installing a framework like Jest or Mocha?")).toBe(
      "without installing a framework like Jest or Mocha",
    );
    expect(setAsideText("Can I have both branches checked out at once instead of stashing everything?")).toBe("instead of stashing everything");
    expect(setAsideText("Load it lazily rather than at start, then cache it.")).toBe("rather than at start");
    expect(setAsideText("How do I revoke an API key?")).toBe("");
  });

  it("keeps a term the question also uses outside the phrase", () => {
    const terms = setAsideTerms("How do I run a test without running a test framework?", matches);
    expect([...terms].sort()).toEqual(["framework", "running", "without"]);
    // The marker's own words are set aside too: "instead" says nothing of the subject.
    expect([...setAsideTerms("What can I use instead of buttermilk?", matches)].sort()).toEqual(["buttermilk", "instead", "of"]);
    expect(setAsideTerms("How do I run tests?", matches).size).toBe(0);
    expect(setAsideTerms("without tests", undefined).size).toBe(0);
  });

  it("costs one pass over a hostile question", () => {
    const hostile = "without ".repeat(20_000);
    const started = performance.now();
    setAsideTerms(hostile, matches);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
