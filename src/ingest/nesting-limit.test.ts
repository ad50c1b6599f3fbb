import { describe, expect, it } from "vitest";
import { checkNesting, MAX_MARKDOWN_NESTING, MAX_NESTING } from "./nesting-limit.ts";

describe("checkNesting", () => {
  it("refuses HTML nested past the limit, closed or not, and Markdown lists and quotes nested past theirs", () => {
    const deep = MAX_NESTING + 1;
    expect(() => checkNesting(`${"<div>".repeat(deep)}x${"</div>".repeat(deep)}`, false)).toThrow(/nests its tags/);
    expect(() => checkNesting("<div>a ".repeat(deep), false)).toThrow(/nests its tags/);
    expect(() => checkNesting(`${"> ".repeat(MAX_MARKDOWN_NESTING + 1)}text`, true)).toThrow(/nests its lines/);
    const list = Array.from({ length: MAX_MARKDOWN_NESTING + 2 }, (_, i) => `${"  ".repeat(i)}- item`).join("\n");
    expect(() => checkNesting(list, true)).toThrow(/nests its lines/);
  });

  it("counts depth as the parser builds it: stray close tags, quoted brackets, mixed case and unclosed options do not hide it", () => {
    const n = MAX_NESTING + 1;
    for (const page of ["<div>a</span>".repeat(n), '<div title="<">a'.repeat(n), `<ul>${"<Li>a".repeat(n)}`, `<select>${"<option>a".repeat(n)}`])
      expect(() => checkNesting(page, false)).toThrow(/nests its tags/);
    expect(() => checkNesting(`${"- ".repeat(MAX_MARKDOWN_NESTING + 1)}x`, true)).toThrow(/nests its lines/);
    // Many lines each nested deep, though none past the limit.
    expect(() => checkNesting(`${"- ".repeat(MAX_MARKDOWN_NESTING)}x\n`.repeat(50), true)).toThrow(/too many lines deep/);
  });

  it("reads a page once: tags that never end or fences that never close cost no more than their length", () => {
    const started = performance.now();
    for (let i = 0; i < 8; i++) checkNesting(`<${"a".repeat(40_000)}`, false);
    checkNesting("~~~~x\n".repeat(40_000), true);
    // A regular expression took 8.4 s and 24.7 s over these.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("passes real pages: items and paragraphs whose end tags are left out, void elements, generics in Markdown code", () => {
    expect(() => checkNesting(`<ul>${"<li>item <br> <img src=x>".repeat(5000)}</ul>${"<p>text".repeat(5000)}`, false)).not.toThrow();
    const generics = "Returns `Promise<Array<string>>`.\n\n```ts\nconst x: Map<string, Set<number>> = new Map();\n```\n".repeat(MAX_NESTING);
    expect(() => checkNesting(generics, true)).not.toThrow();
    expect(() => checkNesting(`${"<div>".repeat(MAX_NESTING)}x${"</div>".repeat(MAX_NESTING)}`, false)).not.toThrow();
  });
});
