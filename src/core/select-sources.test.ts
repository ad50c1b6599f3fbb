import { describe, expect, it } from "vitest";
import { distinctiveNameWords, mentionedSources } from "./select-sources.ts";

describe("source names in a question", () => {
  it("takes a name's identifying words, with and without its punctuation", () => {
    expect(distinctiveNameWords("Node.js v18 Documentation")).toEqual(["node.js", "node", "nodejs", "v18"]);
    expect(distinctiveNameWords("PostgreSQL 15 Documentation")).toEqual(["postgresql"]);
  });

  it("finds the source a question names as people type it", () => {
    const sources = [
      { id: "n", name: "Node.js v18 Documentation" },
      { id: "p", name: "Python 3.11 Documentation" },
    ] as Parameters<typeof mentionedSources>[1];
    expect(mentionedSources("How do I join paths in nodejs?", sources).map((s) => s.id)).toEqual(["n"]);
    expect(mentionedSources("How do I join paths in Node.js?", sources).map((s) => s.id)).toEqual(["n"]);
    expect(mentionedSources("How do I join paths?", sources)).toEqual([]);
  });
});
