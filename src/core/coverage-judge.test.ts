import { describe, expect, it } from "vitest";
import { englishAnalyzer as analyzer } from "../text/english-analyzer.ts";
import { coversQuestion, unknownNames } from "./coverage-judge.ts";
import type { RankedPage } from "./rank-pages.ts";
import type { SourceInfo } from "./source-catalog.ts";

const page = (coverage: number, matched: string[] = []): RankedPage => ({
  url: `https://docs.example/${coverage}`,
  anchor: "",
  title: "",
  sourceId: "s",
  score: 1,
  coverage,
  similarity: 0,
  chunks: [{ sourceId: "s", url: "", anchor: "", title: "", section: "", text: "", score: 1, matched, titleMatched: [], headingMatched: [] }],
  links: [],
});
const english = new Set(["reorder", "table", "index", "replication", "server", "configure", "second", "speak"]);
const isWord = (w: string) => english.has(w);
const matches = (text: string) => [text.toLowerCase()];
const sources = [{ name: "PostgreSQL 15 Documentation" } as SourceInfo];
const base = { query: "q", sources, minSimilarity: 0.45, named: false, analyzer };

describe("coversQuestion", () => {
  it("judges by the best-covering candidate, not only the best-ranked page", () => {
    expect(coversQuestion({ ...base, pages: [page(0.5), page(0.68)] })).toBe(true);
    expect(coversQuestion({ ...base, pages: [page(0.5), page(0.4)] })).toBe(false);
  });

  it("asks less of a named source: refused only when nothing in it is relevant", () => {
    expect(coversQuestion({ ...base, named: true, pages: [page(0.39)] })).toBe(true);
    expect(coversQuestion({ ...base, named: true, pages: [page(0.2)] })).toBe(false);
    expect(coversQuestion({ ...base, named: true, pages: [] })).toBe(false);
  });

  it("takes a page found by meaning as covering", () => {
    expect(coversQuestion({ ...base, pages: [{ ...page(0.1), similarity: 0.5 }] })).toBe(true);
  });

  it("refuses, when no source was named, a question naming what no candidate page holds", () => {
    const pages = [page(0.9, ["configure", "replication", "server"])];
    const query = "How do I configure MySQL replication to a second server?";
    expect(unknownNames({ analyzer, query, pages, sources, matches, isWord })).toEqual(["MySQL"]);
    expect(coversQuestion({ ...base, query, pages, matches, isWord })).toBe(false);
    // The source named the name: it is the user's to name.
    expect(coversQuestion({ ...base, named: true, query, pages, matches, isWord })).toBe(true);
  });

  it("does not count acronyms, dictionary words, source names or held names as unknown", () => {
    const pages = [page(0.9, ["mysql"])];
    expect(unknownNames({ analyzer, query: "Does PostgreSQL speak TLS to a MySQL server?", pages, sources, matches, isWord })).toEqual([]);
    // Without the retriever's reading of words or a dictionary, nothing is judged a name.
    expect(unknownNames({ analyzer, query: "Kubernetes ingress", pages, sources, isWord })).toEqual([]);
  });
});

describe("unknownNames and the caller's own text", () => {
  const pages = [page(0.9, ["insert", "fails"])];
  // Every word English but the names of this test.
  const isWord = (w: string) => !/^(mysql|pkey|orders|mylib|utils|frobnicate)$/.test(w);
  it("does not take quoted text or code tokens for product names", () => {
    const query = `Every INSERT fails with: duplicate key value violates unique constraint "orders_pkey". Also require('mylib/utils/date') and \`frobnicate(x)\` fail.`;
    expect(unknownNames({ analyzer, query, pages, sources, matches, isWord })).toEqual([]);
  });

  it("still names a bare product word, and reads an apostrophe as no quote", () => {
    const query = "I'm moving my user's MySQL tables and the pkey isn't kept";
    expect(unknownNames({ analyzer, query, pages, sources, matches, isWord })).toEqual(["MySQL", "pkey"]);
    // A pair of products and a quoted single name are names, not code.
    expect(unknownNames({ analyzer, query: `from Oracle/MySQL to "Frobnicate"`, pages, sources, matches, isWord })).toEqual(["MySQL", "Frobnicate"]);
  });
});

describe("unknownNames on hostile text", () => {
  it("reads questions of many quotes or one huge token in linear time (each took seconds when a pattern spanned them)", () => {
    const pages = [page(0.9)];
    for (const query of [' "a'.repeat(30_000), "a".repeat(100_000), ` ${"x".repeat(30)} '`.repeat(3_000)]) {
      const started = performance.now();
      unknownNames({ analyzer, query, pages, sources, matches, isWord: () => true });
      // Seconds before; a generous bound so a slow machine does not fail it, far under what it was.
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});
