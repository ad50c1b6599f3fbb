import { describe, expect, it } from "vitest";
import { englishAnalyzer as analyzer } from "../text/english-analyzer.ts";
import { codeNames, coversQuestion, documentationWords, unknownNames } from "./coverage-judge.ts";
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
const english = new Set(["reorder", "table", "index", "replication", "server", "configure", "second", "speak", "vacuum"]);
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

describe("documentation words", () => {
  // Shares of everyday speech (SUBTLEX-like figures) and of the index's words.
  const speech: Record<string, number> = { weekend: 7e-5, commit: 6e-5, index: 1e-5, wall: 1.2e-4, fall: 2e-4 };
  const everyday = (term: string) => speech[term] ?? 0;
  const term = (text: string, share: number | undefined) => ({ term: text, text, weight: 1, share });

  it("keeps the words the documentation uses at least twice as often as people say them, and none it never uses", () => {
    const terms = [term("commit", 4e-3), term("weekend", 1e-4), term("index", 1.9e-5), term("itertool", 2e-5), term("berlin", 0)];
    expect(documentationWords(terms, everyday)).toEqual(["commit", "itertool"]);
    expect(documentationWords([term("wall", 1e-5), term("fall", 3e-4), term("1989", 1e-3)], everyday)).toEqual([]);
    // Not told: a retriever that does not count words, or no reference frequencies.
    expect(documentationWords([term("commit", undefined)], everyday)).toBeNull();
    expect(documentationWords(terms, undefined)).toBeNull();
  });

  it("takes a question with none as not covered, whatever its coverage", () => {
    const pages = [page(0.9)];
    expect(coversQuestion({ ...base, pages, everyday, terms: [term("wall", 1e-5), term("fall", 3e-4)] })).toBe(false);
    expect(coversQuestion({ ...base, pages, everyday, terms: [term("wall", 1e-5), term("commit", 4e-3)] })).toBe(true);
    expect(coversQuestion({ ...base, pages, everyday, terms: [term("wall", undefined)] })).toBe(true);
  });
});

describe("code names", () => {
  it("reads the names a question writes as code, and not product names or short ones", () => {
    expect(codeNames("I'm using itertools.groupby to group records, but the same user shows up twice?")).toEqual(["itertools.groupby"]);
    expect(codeNames("It crashes with ERR_REQUIRE_ESM when require('x') loads it")).toEqual(["ERR_REQUIRE_ESM", "require"]);
    expect(codeNames("How do I set `search_path` for `os.walk(top)`, e.g. len()?")).toEqual(["search_path", "os.walk"]);
    expect(codeNames("Does macOS ship PostgreSQL or Node.js?")).toEqual(["Node.js"]);
    expect(codeNames(`${"a".repeat(150)}.b ${"x_".repeat(60)}y`)).toEqual([]);
    // A hostile question of thousands of names is read only until its first 64.
    expect(codeNames(Array.from({ length: 10_000 }, (_, i) => `name_number_${i}`).join(" "))).toHaveLength(64);
  });

  const withText = (coverage: number, text: string): RankedPage => {
    const p = page(coverage);
    return { ...p, chunks: [{ ...p.chunks[0]!, text }] };
  };
  const query = "I'm using itertools.groupby to group log records by user, but one user shows up as several groups. What am I doing wrong?";
  const python = [{ name: "Python 3.11 Documentation" } as SourceInfo];

  it("asks the named bar of an open question, and nothing of a named source's, when a candidate passage writes a code name of it", () => {
    const held = [withText(0.45, "itertools.groupby(iterable, key=None) makes an iterator that returns consecutive keys and groups.")];
    expect(coversQuestion({ ...base, sources: python, query, pages: held })).toBe(true);
    // The name's words apart, or a longer name, are not the name; below the named bar nothing passes.
    const apart = [withText(0.45, "The itertools module; groupby makes groups."), withText(0.45, "itertools.groupbykey is another.")];
    expect(coversQuestion({ ...base, sources: python, query, pages: apart })).toBe(false);
    expect(coversQuestion({ ...base, sources: python, query, pages: [withText(0.3, held[0]!.chunks[0]!.text)] })).toBe(false);
    // Asked of a named source, a passage writing the name is relevant holding half the named bar's share of the story.
    const named = { ...base, named: true, sources: python, query, isWord };
    expect(coversQuestion({ ...named, pages: [withText(0.2, held[0]!.chunks[0]!.text)] })).toBe(true);
    expect(coversQuestion({ ...named, pages: [withText(0.2, apart[0]!.chunks[0]!.text)] })).toBe(false);
    expect(coversQuestion({ ...named, pages: [withText(0.1, held[0]!.chunks[0]!.text)] })).toBe(false);
    // A word typed as a call or in backticks is no code name; nor is anything without a word list to tell.
    const vacuum = withText(0.2, "VACUUM reclaims storage occupied by dead tuples.");
    expect(coversQuestion({ ...named, query: "Which robot vacuum(for pet hair) should I buy?", pages: [vacuum] })).toBe(false);
    expect(coversQuestion({ ...named, query: "Tell me a story about a dragon who loved to `vacuum` gems", pages: [vacuum] })).toBe(false);
    expect(coversQuestion({ ...named, isWord: undefined, pages: [withText(0.2, held[0]!.chunks[0]!.text)] })).toBe(false);
    const host = withText(0.2, "Binaries can be downloaded from https://github.com/lz4/lz4/releases.");
    expect(coversQuestion({ ...named, query: "What is the capital of France? I read about it on github.com", pages: [host] })).toBe(false);
    // A source's own name written with a dot names the source, not code in it.
    const node = [{ name: "Node.js 18 API" } as SourceInfo];
    expect(coversQuestion({ ...base, sources: node, query: "How do I book a flight with Node.js?", pages: [withText(0.45, "Node.js is a runtime.")] })).toBe(
      false,
    );
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

describe("unknownNames and words a word list lacks", () => {
  const pages = [page(0.9, ["checkout", "slow", "unicode"])];
  const english = new Set([
    "checkout",
    "slow",
    "our",
    "mono",
    "repo",
    "stand",
    "alone",
    "elastic",
    "search",
    "reference",
    "error",
    "script",
    "fails",
    "with",
    "in",
    "ago",
  ]);
  english.add("configure").add("decode").add("web").add("pack").add("server").add("null").add("pointer");
  const isWord = (w: string) => english.has(w);
  // What the documentation uses somewhere (the retriever's counts), though no candidate page holds it.
  const terms = ["monorepo", "standalone", "inago"].map((text) => ({ term: analyzer.term(text), text, weight: 1, share: 1e-5 }));

  it("reads a lower-case compound of English words the documentation uses, and an exception's class name, as words", () => {
    const query = "Our monorepo checkout is slow, a standalone script fails with ReferenceError and UnicodeDecodeError";
    expect(unknownNames({ analyzer, query, pages, sources, matches, isWord, terms })).toEqual([]);
    // Without the retriever's counts, or for a compound the documentation never uses, a coined word may be a product.
    expect(unknownNames({ analyzer, query: "configure webpack, a monorepo", pages, sources, matches, isWord })).toEqual(["webpack", "monorepo"]);
    expect(unknownNames({ analyzer, query: "configure webpack", pages, sources, matches, isWord, terms })).toEqual(["webpack"]);
  });

  it("reads a lower-case compound that a dictionary of software jargon lists as a word, though the documentation never uses it", () => {
    const isSoftwareTerm = (w: string) => w === "monorepo";
    expect(unknownNames({ analyzer, query: "configure webpack, a monorepo", pages, sources, matches, isWord, isSoftwareTerm })).toEqual(["webpack"]);
    // Only a compound of English words, written in lower case: listed or not, a capitalised one stays a name.
    expect(unknownNames({ analyzer, query: "our Monorepo and inago", pages, sources, matches, isWord, isSoftwareTerm: () => true })).toEqual([
      "Monorepo",
      "inago",
    ]);
  });

  it("reads a sentence's capitalised first word as it would be written inside the sentence", () => {
    const isSoftwareTerm = (w: string) => w === "monorepo" || w === "webhook";
    const isWord = (w: string) => english.has(w) || w === "hook";
    const query = "Monorepo: slow. Webhook fails in our script! Elasticsearch fails?";
    // A listed compound is jargon wherever a sentence starts; an unlisted one stays a product.
    expect(unknownNames({ analyzer, query, pages, sources, matches, isWord, isSoftwareTerm })).toEqual(["Elasticsearch"]);
    // After a colon, an exclamation or a question mark too; capitalised only as a sentence's first word is.
    const more = "Note: Monorepo fails! Webhook fails? MonoRepo fails";
    expect(unknownNames({ analyzer, query: more, pages, sources, matches, isWord, isSoftwareTerm })).toEqual(["Note", "MonoRepo"]);
    // Inside a sentence, capitalised, it is a name again.
    expect(unknownNames({ analyzer, query: "our Monorepo fails", pages, sources, matches, isWord, isSoftwareTerm })).toEqual(["Monorepo"]);
  });

  it("does not take a name the question sets aside for what it is about", () => {
    const isWord = (w: string) => !/^(pytz|chicago|pendulum)$/.test(w);
    const query = "How do I convert a timestamp to Chicago time without pytz, instead of Pendulum?";
    expect(unknownNames({ analyzer, query, pages, sources, matches, isWord })).toEqual(["Chicago"]);
    expect(unknownNames({ analyzer, query: "Can pytz convert a timestamp?", pages, sources, matches, isWord })).toEqual(["pytz"]);
  });

  it("still names a capitalised compound, a part under three letters, a lone unknown word and what an exception's name names", () => {
    // A product is written capitalised (Elasticsearch); "inago" splits only as in + ago.
    expect(unknownNames({ analyzer, query: "Elasticsearch and inago and axios", pages, sources, matches, isWord, terms })).toEqual([
      "Elasticsearch",
      "inago",
      "axios",
    ]);
    // An exception the pages write is known, whatever its parts.
    expect(unknownNames({ analyzer, query: "RuntimeError in a script", pages: [page(0.9, ["runtimeerror"])], sources, matches, isWord })).toEqual([]);
    // An exception's name is read by its parts: Mongo is a name; the suffix must end it.
    expect(unknownNames({ analyzer, query: "MongoServerError, NullPointerException, ErrorBoundary", pages, sources, matches, isWord, terms })).toEqual([
      "MongoServerError",
      "ErrorBoundary",
    ]);
  });
});

describe("unknownNames on hostile text", () => {
  it("reads questions of many quotes or one huge token in linear time (each took seconds when a pattern spanned them)", () => {
    const pages = [page(0.9)];
    for (const [query, isWord] of [
      [' "a'.repeat(30_000), () => true],
      ["a".repeat(100_000), () => true],
      [` ${"x".repeat(30)} '`.repeat(3_000), () => true],
      // Words no list holds, each tried as a compound at every split, and one too long to try.
      [` ${"q".repeat(30)}`.repeat(3_000), () => false],
      ["q".repeat(100_000), () => false],
      // An exception's name read by its parts: one huge one, and many.
      [`A${"b".repeat(100_000)}Error`, () => false],
      [` Ab${"Cd".repeat(10)}Error`.repeat(5_000), () => false],
    ] as const) {
      const started = performance.now();
      // Every unknown word also looked up as jargon, and each listed one tried as a compound.
      unknownNames({ analyzer, query, pages, sources, matches, isWord, isSoftwareTerm: () => true });
      // Seconds before; a generous bound so a slow machine does not fail it, far under what it was.
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});
