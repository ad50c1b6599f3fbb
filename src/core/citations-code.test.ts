import { Marked } from "marked";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { createCitationRenumberer } from "./citations.ts";

/** Renumbers a reply whole and one character at a time, expecting the same reading. */
function renumbered(text: string, references = 3) {
  const whole = createCitationRenumberer(references);
  const out = whole.push(text) + whole.flush();
  const split = createCitationRenumberer(references);
  expect([...text].map((c) => split.push(c)).join("") + split.flush()).toBe(out);
  return { text: out, order: whole.order };
}

/** What a CommonMark + GFM reader (micromark, as the playground's renderer reads) takes for code. */
function codeOf(markdown: string): string[] {
  const codes: string[] = [];
  const visit = (node: Nodes) => {
    if (node.type === "code" || node.type === "inlineCode") codes.push(node.value);
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
  return codes;
}

describe("indented code", () => {
  it("leaves an indented code block alone, as it leaves a fenced one", () => {
    const reply = "Parse the arguments [2]:\n\n    import sys\n    n = [1, 2]\n    print(sys.argv [3], '<b>')\n\nThen run it [3].";
    expect(renumbered(reply)).toEqual({
      text: "Parse the arguments [1]:\n\n    import sys\n    n = [1, 2]\n    print(sys.argv [3], '<b>')\n\nThen run it [2].",
      order: [2, 3],
    });
  });

  it("reads a list item's indented paragraph as prose and its code four columns further in, escaped there", () => {
    const reply = "1. Install it [2]:\n\n       pip install x[1]  # <pkg>\n\n   Then restart [3] <b>now</b>.\n\n    More [1].";
    const { text, order } = renumbered(reply);
    // The code's marker-like text is left alone; its `<` is still escaped, since not every renderer (marked) reads
    // indented code in a list item as code.
    expect(text).toBe("1. Install it [1]:\n\n       pip install x[1]  # &lt;pkg>\n\n   Then restart [2] &lt;b>now&lt;/b>.\n\n    More [3].");
    expect(order).toEqual([2, 3, 1]);
    expect(codeOf(text)).toEqual(["pip install x[1]  # &lt;pkg>"]);
    // A fence in a list item, closed, is code to every renderer: left exactly as written.
    const fenced = "1. Install it [2]:\n   ```html\n   <b>[1]</b>\n   ```\n2. Then [1].";
    expect(renumbered(fenced).text).toBe("1. Install it [1]:\n   ```html\n   <b>[1]</b>\n   ```\n2. Then [2].");
  });

  it("needs a blank line before: an indented line continuing a paragraph is prose", () => {
    expect(renumbered("A sentence [2]\n    continued [1] <i>x</i>.").text).toBe("A sentence [1]\n    continued [2] &lt;i>x&lt;/i>.");
    // After a fence's end no paragraph is open, so code may follow at once; a tab indents to the next stop of four.
    expect(renumbered("```\na\n```\n    b [1] <i>\n\n\tc [2] <i>\n").text).toBe("```\na\n```\n    b [1] <i>\n\n\tc [2] <i>\n");
  });

  it("leaves no tag unescaped that a renderer reads as HTML, in the shapes a review found", () => {
    for (const reply of [
      // A lazy line four columns past the item's text looks like a fence or a heading, and is the item's text.
      "10.  a\n    ```\n<t1> [2]\n",
      "10.  a\n    # h\n    <t1>",
      // An underline after a list's lazy line: a heading to micromark, text to marked.
      "a\n3. x\n===\n    <t1>",
      // A closing fence is followed by spaces and tabs only; a deeper quote's fence line is the quoted fence's text.
      "```\n```\u00a0\n```\n<t1> [2]\n",
      "> ```\n> > ```\n> ```\n> <t1> [2]\n",
      // A code span does not close across a fence line or a nested item.
      "a ``` x <t1> [2]\n```\n",
      "1.  a `x\n    - b <t1>`\n",
      // A fence-like line too long to hold is read the same whole or split.
      `\`\`\`${" ".repeat(2001)}\`\n<t1> [2]\n`,
    ]) {
      const out = renumbered(reply).text;
      const code = codeOf(out).join("\n");
      for (const [left] of out.matchAll(/<t\d+>/g)) expect(code, JSON.stringify(reply)).toContain(left);
      expect((new Marked({ gfm: true }).parse(out) as string).match(/<t\d+>/g), JSON.stringify(reply)).toBeNull();
    }
  });

  it("takes for code only what renderers take for code (micromark, marked), over 2,000 generated replies", () => {
    // Lines of the shapes models write (lists, nesting, quotes, fences, tabs, indents); each carries a tag that the
    // reader escapes unless it takes the line for code. A tag left as written must be in code to micromark (CommonMark)
    // and to marked (the playground's renderer) too: otherwise raw HTML (or a definition) would reach a renderer unescaped.
    const shapes = [
      "",
      "",
      "text %",
      "- item %",
      "* item %",
      "1. item %",
      "10.  wide %",
      "2) other %",
      "  - nested %",
      "    - deeper %",
      "-",
      "-\t%",
      "    code %",
      "      code %",
      "        code %",
      "\tcode %",
      "  \tcode %",
      "   text %",
      "```",
      "  ```",
      "   ~~~",
      "> quote %",
      ">     quoted %",
      "> - quoted item %",
      "# heading %",
      "---",
      "* * *",
      "===",
      "    ```",
      "    # heading %",
      "> ```",
      "> > ```",
    ];
    let seed = 7;
    const random = (n: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    let read = 0;
    for (let round = 0; round < 2_000; round++) {
      let tag = 0;
      const lines = Array.from({ length: 2 + random(10) }, () => shapes[random(shapes.length)]!.replace("%", () => `<t${++tag}> [${1 + random(3)}]`));
      const out = renumbered(lines.join("\n")).text;
      const code = codeOf(out).join("\n");
      // marked writes code's `<` as `&lt;`: a tag it passes through as written was read as HTML outside code.
      expect((new Marked({ gfm: true }).parse(out) as string).match(/<t\d+>/g), JSON.stringify(lines.join("\n"))).toBeNull();
      for (const [left] of out.matchAll(/<t\d+>/g)) {
        read++;
        expect(code, `${JSON.stringify(lines.join("\n"))} read ${left} as code`).toContain(left);
      }
    }
    // The generated replies do hold code the reader recognises (the check above is not vacuous).
    expect(read).toBeGreaterThan(500);
  });
});
