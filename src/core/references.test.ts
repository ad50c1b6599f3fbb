import { describe, expect, it } from "vitest";
import { citationMarkers } from "./citations.ts";
import { citations } from "./completion-object.ts";
import { rankPages, referenceUrl } from "./rank-pages.ts";
import { groundPages, markdownText, referencesBlock } from "./references.ts";
import type { RetrievedChunk } from "./retriever.ts";

const chunk = (url: string, score: number, matched: string[], extra: Partial<RetrievedChunk> = {}): RetrievedChunk => ({
  sourceId: "s",
  url,
  anchor: "",
  title: url.toUpperCase(),
  section: "",
  text: `${url} text`,
  score,
  matched,
  titleMatched: [],
  headingMatched: [],
  ...extra,
});
const terms = [
  { term: "vacuum", text: "vacuum", weight: 4 },
  { term: "tabl", text: "table", weight: 1 },
];

describe("rankPages", () => {
  it("collapses passages to unique pages, best first, keeping each page's passages", () => {
    const pages = rankPages({
      chunks: [chunk("a", 9, ["vacuum", "tabl"], { anchor: "s1" }), chunk("b", 8, ["vacuum"]), chunk("a", 7, ["tabl"], { anchor: "s2" })],
      terms,
    });
    expect(pages.map((p) => [p.url, p.chunks.length, p.anchor])).toEqual([
      ["a", 2, "s1"],
      ["b", 1, ""],
    ]);
    expect(pages[0]!.coverage).toBe(1);
    expect(pages[1]!.coverage).toBe(0.8);
    expect(referenceUrl(pages[0]!)).toBe("a#s1");
  });

  it("lets a page named after the question's rare terms outrank a page that only mentions them", () => {
    const pages = rankPages({
      chunks: [chunk("manual", 10, ["vacuum", "tabl"]), chunk("sql-vacuum", 8, ["vacuum", "tabl"], { titleMatched: ["vacuum"] })],
      terms,
    });
    expect(pages[0]!.url).toBe("sql-vacuum");
  });

  it("weighs rare words over common ones in coverage", () => {
    const pages = rankPages({ chunks: [chunk("common", 10, ["tabl"]), chunk("rare", 10, ["vacuum"])], terms });
    expect(pages.map((p) => p.url)).toEqual(["rare", "common"]);
  });
});

describe("groundPages", () => {
  it("takes at most maxReferences pages and numbers their passages by page", () => {
    const pages = rankPages({
      chunks: [chunk("a", 9, ["vacuum"]), chunk("b", 8, ["vacuum"]), chunk("a", 7, ["vacuum"]), chunk("a", 6, ["vacuum"]), chunk("c", 5, ["vacuum"])],
      terms,
    });
    const { references, documents } = groundPages(pages, { maxReferences: 2 });
    expect(references.map((r) => r.url)).toEqual(["a", "b"]);
    expect(documents.map((d) => d.referenceNumber)).toEqual([1, 1, 2]);
  });
});

describe("groundPages with passages of several sections", () => {
  it("numbers each section a passage holds as its own reference, and keeps one reference per page for a reply that cites nothing", () => {
    const spans = [
      { start: 0, anchor: "ordering", section: "Header Ordering" },
      { start: 26, anchor: "timeouts", section: "Timeouts" },
    ];
    const merged = chunk("https://x/advanced.html", 9, ["vacuum"], {
      anchor: "ordering",
      section: "Header Ordering",
      text: "Headers keep their order.\n\nTimeouts\n\nSet a timeout.",
      spans,
    });
    const pages = rankPages({ chunks: [merged, chunk("https://x/api.html", 8, ["vacuum"], { anchor: "get" })], terms });
    const { references, pages: perPage, documents } = groundPages(pages, { maxReferences: 5 });
    expect(references.map((r) => r.url)).toEqual(["https://x/advanced.html#ordering", "https://x/advanced.html#timeouts", "https://x/api.html#get"]);
    expect(perPage.map((r) => r.url)).toEqual(["https://x/advanced.html#ordering", "https://x/api.html#get"]);
    expect(documents.map((d) => [d.referenceNumber, d.passage, d.section, d.url, d.text])).toEqual([
      [1, 0, "Header Ordering", "https://x/advanced.html#ordering", "Headers keep their order."],
      [2, 0, "Timeouts", "https://x/advanced.html#timeouts", "Timeouts\n\nSet a timeout."],
      [3, 1, "", "https://x/api.html#get", "https://x/api.html text"],
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
    // Nor can a crawled page's path, after the bare URL.
    expect(referencesBlock([{ url: "https://x/a](https://evil.example/)\u00a0[2](https://evil.example/)", title: "A" }])).toBe(
      "\n\nReferences:\n[1] A: https://x/a%5D%28https://evil.example/%29%C2%A0%5B2%5D%28https://evil.example/%29",
    );
    // A page's title cannot write an HTML tag or a code span (which would swallow the marker after it) into the reply.
    expect(referencesBlock([{ url: "https://x/a", title: 'Notes <a href="https://evil.example/x">[1]</a> `x' }])).toBe(
      '\n\nReferences:\n[1] Notes &lt;a href="https://evil.example/x">\\[1\\]&lt;/a> \\`x: https://x/a',
    );
    // A page's title cannot write a link into the reply.
    expect(referencesBlock([{ url: "https://x/a", title: "Guide [phish](https://evil.example/)" }])).toBe(
      "\n\nReferences:\n[1] Guide \\[phish\\](https://evil.example/): https://x/a",
    );
  });
  it("writes a title's full-width brackets as escaped ASCII ones, so a title cannot forge a citation", () => {
    expect(markdownText("Setup ［1］ guide")).toBe("Setup \\[1\\] guide");
    expect(citationMarkers(`See also: ${markdownText("Setup ［1］ 指南［2］")} [3].`).map((m) => m.numbers)).toEqual([[3]]);
  });

  it("spans each url_citation annotation over its first [n] marker", () => {
    const text = "First [2]. Then [1].";
    expect(citations(text, refs).map((c) => [c.url_citation.url, text.slice(c.url_citation.start_index, c.url_citation.end_index)])).toEqual([
      ["https://x/a", "[1]"],
      ["https://x/b", "[2]"],
    ]);
  });
  it("annotates markers only, not code that looks like one", () => {
    const text = "Use `argv[2]` [1].";
    expect(citations(text, refs).map((c) => [c.url_citation.url, text.slice(c.url_citation.start_index, c.url_citation.end_index)])).toEqual([
      ["https://x/a", "[1]"],
      ["https://x/b", ""],
    ]);
  });
  it("spans a marker that cites several references over the whole list", () => {
    const text = "Both pages say so [1, 2]. Only A [1].";
    expect(
      citations(text, [...refs, { url: "https://x/c", title: "C", sourceId: "s" }]).map((c) => [
        c.url_citation.url,
        text.slice(c.url_citation.start_index, c.url_citation.end_index),
      ]),
    ).toEqual([
      ["https://x/a", "[1, 2]"],
      ["https://x/b", "[1, 2]"],
      ["https://x/c", ""],
    ]);
  });
});
