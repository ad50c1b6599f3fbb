import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildPrompt } from "../core/prompt.ts";
import { countTokens } from "./tokenizer.ts";

const direct = (text: string): number =>
  (createRequire(import.meta.url)("gpt-tokenizer") as { countTokens: (t: string, o: object) => number }).countTokens(text, { allowedSpecial: "all" });

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

const PIECES = [
  "word",
  "Index",
  " ",
  "  ",
  "\n",
  "\n\n",
  "\r\n",
  "[",
  "]",
  "[2]",
  "/usr/bin",
  ".",
  "...",
  ")",
  "'s",
  "42",
  "12345",
  "é",
  "日本",
  "\t",
  "{",
  "<|endoftext|>",
  "-",
  "—",
];

describe("countTokens", () => {
  it("counts a prompt of documentation excerpts exactly as the tokenizer does", () => {
    const fixtures = path.resolve(import.meta.dirname, "../../test/fixtures");
    const texts = ["pg/sql-vacuum.html", "pg/sql-createindex.html", "sqlite/lang/vacuum.md", "sqlite/partialindex.md"].map((f) =>
      fs.readFileSync(path.join(fixtures, f), "utf8"),
    );
    const documents = texts.map((text, i) => ({ referenceNumber: i + 1, title: `Page ${i}`, section: "Section", url: `https://x/${i}.html`, text }));
    const prompt = buildPrompt([{ role: "user", content: "How do I vacuum?" }], documents)[1]!.content;
    expect(prompt.length).toBeGreaterThan(2048);
    expect(countTokens(prompt)).toBe(direct(prompt));
    // Counted again from remembered excerpts: the same total.
    expect(countTokens(prompt)).toBe(direct(prompt));
  });

  it("gives the tokenizer's count for long texts of awkward pieces split at blank lines before [", () => {
    const next = random(7);
    for (let sample = 0; sample < 200; sample++) {
      let text = "";
      while (text.length < 3000) text += PIECES[Math.floor(next() * PIECES.length)];
      // Blocks that end in spaces, punctuation or newlines, then an excerpt header.
      text = text.replaceAll("[2]", "\n\n[2]");
      expect(countTokens(text), JSON.stringify(text.slice(0, 200))).toBe(direct(text));
    }
  });

  it("counts nothing as zero and short texts directly", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("Hello, world")).toBe(direct("Hello, world"));
  });

  it("counts a long run without a space in pieces (merging is quadratic in a pre-token's length)", () => {
    // 100,000 letters took the tokenizer 12 s in one piece; 50,000 emoji, 64 s. Their counts, known in advance:
    expect(countTokens("a".repeat(100_000))).toBe(12_500);
    expect(countTokens("😀".repeat(50_000))).toBe(50_000);
    expect(countTokens(`${" ".repeat(10_000)}x`)).toBeGreaterThan(0);
  });
});
