import { describe, expect, it } from "vitest";
import { englishAnalyzer as analyzer } from "../text/english-analyzer.ts";
import type { SourceInfo } from "./source-catalog.ts";
import { distinctiveNameWords, mentionedSources, withinOneEdit, withoutSourceNames } from "./source-names.ts";

const source = (id: string, name: string) => ({ id, name }) as unknown as SourceInfo;
const sources = [
  source("n", "Node.js v18 Documentation"),
  source("p", "Python 3.11 Documentation"),
  source("g", "PostgreSQL 15 Documentation"),
  source("r", "Requests"),
];
const dictionary = new Set(["request", "python", "join", "paths", "vacuum", "table"]);
const isWord = (word: string) => dictionary.has(word);
const named = (query: string) => mentionedSources(query, sources, { analyzer, isWord }).map((s) => s.id);

describe("source names in a question", () => {
  it("takes a name's identifying words, with and without its punctuation", () => {
    expect(distinctiveNameWords("Node.js v18 Documentation", analyzer)).toEqual(["node", "nodejs", "v18"]);
    expect(distinctiveNameWords("PostgreSQL 15 Documentation", analyzer)).toEqual(["postgresql"]);
  });

  it("finds the source a question names as people type it", () => {
    expect(named("How do I join paths in nodejs?")).toEqual(["n"]);
    expect(named("How do I join paths in Node.js?")).toEqual(["n"]);
    expect(named("How do I join paths?")).toEqual([]);
  });

  it("takes a short form or a one-typo spelling of a name, unless it is a dictionary word", () => {
    expect(named("How do I vacuum a table in Postgres?")).toEqual(["g"]);
    expect(named("How do I parse json in pyhton?")).toEqual(["p"]);
    expect(named("How do I send a request?")).toEqual([]); // "request" is a word, not a short "requests"
    expect(mentionedSources("How do I parse json in pyhton?", sources, { analyzer }).map((s) => s.id)).toEqual([]); // no dictionary: exact names only
    expect(withoutSourceNames("How do I vacuum a table in Postgres?", [sources[2]!], { analyzer, isWord })).toBe("How do I vacuum a table in");
  });

  it("tells words one edit apart", () => {
    expect(["pyhton", "pythn", "pythonn", "pithon", "python"].every((w) => withinOneEdit(w, "python"))).toBe(true);
    expect(["pyhtno", "pyth", "nohtyp"].some((w) => withinOneEdit(w, "python"))).toBe(false);
  });
});
