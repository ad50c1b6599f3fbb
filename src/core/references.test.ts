import { describe, expect, it } from "vitest";
import type { RetrievedChunk } from "./retriever.ts";
import { groundChunks, referencesBlock } from "./references.ts";
import { citations } from "./completion-object.ts";

const chunk = (url: string, score: number, text = "t"): RetrievedChunk => ({ sourceId: "s", url, anchor: "", title: url.toUpperCase(), section: "", text, score });

describe("groundChunks", () => {
  it("collapses chunks to unique pages in rank order, capped, numbering passages by page", () => {
    const { references, documents } = groundChunks(
      [chunk("a", 9, "a1"), chunk("b", 8), chunk("a", 7, "a2"), chunk("a", 6, "a3"), chunk("c", 5), chunk("d", 4)],
      { maxReferences: 3 },
    );
    expect(references.map((r) => r.url)).toEqual(["a", "b", "c"]);
    expect(documents.map((d) => [d.referenceNumber, d.text])).toEqual([
      [1, "a1"],
      [2, "t"],
      [1, "a2"],
      [3, "t"],
    ]);
  });
});

describe("references in the reply", () => {
  const refs = [
    { url: "https://x/a", title: "A", sourceId: "s" },
    { url: "https://x/b", title: "B", sourceId: "s" },
  ];
  it("formats the appended block", () => {
    expect(referencesBlock(refs)).toBe("\n\nReferences:\n[1] A: https://x/a\n[2] B: https://x/b");
    expect(referencesBlock([])).toBe("");
  });
  it("spans each url_citation annotation over its first [n] marker", () => {
    const text = "First [2]. Then [1].";
    expect(citations(text, refs).map((c) => [c.url_citation.url, text.slice(c.url_citation.start_index, c.url_citation.end_index)])).toEqual([
      ["https://x/a", "[1]"],
      ["https://x/b", "[2]"],
    ]);
  });
});
