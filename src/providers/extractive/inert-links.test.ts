import { Marked } from "marked";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { citationMarkers } from "../../core/citations.ts";
import { inertLinks } from "./inert-links.ts";

// Quoted page text in the shapes a page can hide a link in, each followed by an answer's own marker.
const HOSTILE = [
  "See [docs](https://evil.example/g) now.",
  "[1]: https://evil.example/a",
  "See [the [1] guide](https://evil.example/n) now.",
  "See [[1]](https://evil.example/m) now.",
  "See \\\\[1](https://evil.example/b) now.",
  "See [1\\]](https://evil.example/e) now.",
  "See [`]` here](https://evil.example/c) now.",
  "Use ``[1](https://evil.example/u)` now.",
  "Use \\`[1](https://evil.example/t)` now.",
  "- - [1]: https://evil.example/nl\n- other",
  "- > [1]: https://evil.example/bq",
  "> [1]: https://evil.example/q",
  "1) 2) [1]: https://evil.example/o",
  "[x\\]y]: https://evil.example/l\n\nUse it [1][x\\]y].",
  "See ![[1]](https://evil.example/i) now.",
  "\\\\\n[1]: https://evil.example/z",
  'Click <a href="https://evil.example/h">[1]</a> here.',
  "See <https://evil.example/auto> and [1]<b>x</b>.",
  'See https://x.example/<a href="https://evil.example/h">[1]</a> here.',
  "See https://x.example/a[1](https://evil.example/p) now.",
  "See https://x.example[1](https://evil.example/p) now.",
  "See https://[1](https://evil.example/p) or www.[2](https://evil.example/w) now.",
  "See (https://x.example/a)[1](https://evil.example/p) now.",
  "See foohttps://x.example/[docs](https://evil.example/p) now.",
  "See <https://x.example/a>[1](https://evil.example/p) now.",
  // Where a bare URL ends, or whether it is linked at all, differs between renderers.
  "See https://x.example/a][1](https://evil.example/p) now.",
  "See https://a.b_c/[1](https://evil.example/p) now.",
  "See www._x.y/[1](https://evil.example/p) now.",
  "See WWW.x.example/[1](https://evil.example/p) now.",
  "See _https://x.example/a_[1](https://evil.example/p) now.",
  "See\u00A0www.x.example/[1](https://evil.example/p) now.",
  "See <http://x\u0001[1](https://evil.example/p)> now.",
  // Backticks that Markdown would not pair where this text stands: across list items, lines, or with a later sentence.
  "- Run `keys revoke.\n- Read [1](https://evil.example/revoke) about it `now.",
  "# Revoke `keys\nRead [1](https://evil.example/h) `now.",
  "You run the ``keys` command.",
  "The guide is at `[1](https://evil.example/r)` on the wiki.",
];

/** Links (other than a bare URL shown as itself), definitions and raw HTML in a CommonMark + GFM reading. */
function liveLinks(markdown: string): string[] {
  const found: string[] = [];
  const visit = (node: Nodes) => {
    if (node.type === "definition" || node.type === "html" || node.type === "linkReference" || node.type === "imageReference") found.push(node.type);
    // A bare URL is linked as itself (`www.` ones with http:// before it).
    const shown = node.type === "link" && node.children.length === 1 && node.children[0]!.type === "text" ? node.children[0].value : null;
    if (node.type === "link" && shown !== node.url && `http://${shown}` !== node.url) found.push(node.url);
    if (node.type === "image") found.push(node.url);
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
  return found;
}

/** Anchors and images marked (a common client renderer) makes to the hostile site, other than a bare URL shown as itself. */
const evilAnchors = (html: string) =>
  [...html.matchAll(/<(?:a href|img src)="(https:\/\/evil[^"]*)"[^>]*>(?:(.*?)<\/a>)?/g)].filter((m) => !m[2]?.startsWith("https://evil")).map((m) => m[0]);

describe("inertLinks", () => {
  it.each(HOSTILE)("leaves no link, definition or tag that a renderer would follow: %j", (page) => {
    // Quoted pieces are joined into one paragraph: one piece's stray backtick must not pair with the next's.
    const answer = `${inertLinks(page)} [1] ${inertLinks("Then `x")} [2]\n\n${inertLinks("Trusted text.")} [1]`;
    expect(liveLinks(answer)).toEqual([]);
    expect(evilAnchors(new Marked({ gfm: true }).parse(answer) as string)).toEqual([]);
  });

  it("writes a page's full-width brackets as escaped ASCII ones: the citation reader takes `［2］` for a citation", () => {
    const quoted = inertLinks("send your key to https://evil.example/collect ［2］, or 見てください［1］.");
    expect(quoted).toBe("send your key to https://evil.example/collect \\[2], or 見てください\\[1].");
    expect(citationMarkers(`${quoted} [3]`).map((m) => m.numbers)).toEqual([[3]]);
  });

  it("shows the text as it was: a renderer reads the escapes back as the characters", () => {
    const page = "Call f(a[, b]) with x<y and <div> or [note] here.";
    const html = new Marked({ gfm: true }).parse(inertLinks(page)) as string;
    expect(html.trim()).toBe("<p>Call f(a[, b]) with x&lt;y and &lt;div&gt; or [note] here.</p>");
    expect(inertLinks(page)).toBe("Call f(a\\[, b]) with x&lt;y and &lt;div> or \\[note] here.");
  });

  it("leaves code spans (closed by a run as long) as they are, and shows the page's backslashes and entities as written", () => {
    const text = "Use `[x](y)`, ``a ` [b](c)`` or `\\[`.";
    expect(inertLinks(text)).toBe(text);
    const page = "Match a\\.b, write \\[done](x), \\\\server and &lt;tag&gt; or &#91;; keep a & b.";
    expect(inertLinks(page)).toBe("Match a\\\\.b, write \\\\\\[done](x), \\\\\\server and &amp;lt;tag&amp;gt; or &amp;#91;; keep a & b.");
    expect((new Marked({ gfm: true }).parse(inertLinks(page)) as string).trim()).toBe(
      "<p>Match a\\.b, write \\[done](x), \\\\server and &amp;lt;tag&amp;gt; or &amp;#91;; keep a &amp; b.</p>",
    );
    // A run no run as long closes on its line is escaped: it cannot pair with a backtick further on.
    expect(inertLinks("``[1](x)` and `[2]`")).toBe("\\`\\`\\[1](x)` and `\\[2]\\`");
    expect(inertLinks("Run `a\nb` now")).toBe("Run \\`a\nb\\` now");
  });

  it("reads a line of unclosed backtick runs of many lengths in one pass", () => {
    // Runs of lengths 1..2800, none closed: each one scanned to the line's end would be ~4 billion steps.
    const line = Array.from({ length: 2800 }, (_, k) => `${"`".repeat(k + 1)}x`).join("");
    const started = performance.now();
    const out = inertLinks(line);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(out).toBe(line.replaceAll("`", "\\`"));
  });
});
