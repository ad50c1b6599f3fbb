import { describe, expect, it } from "vitest";
import { passageSections } from "../core/passage-sections.ts";
import { chunkPage, linkedPages, MAX_LINKED_PAGES, splitText } from "./chunk-sections.ts";

const BASE = "https://docs.example.com/v2/";
const PAGE = `${BASE}guide/indexes.html`;

describe("linkedPages", () => {
  it("resolves links to the source's pages, without fragment, query or the page itself, one entry per page", () => {
    const links = [
      { href: "partial.html#ex1", text: "Section 8", title: "Partial Indexes" },
      { href: "./partial.html?x=1", text: "partial ones" },
      { href: "partial.html", text: "Partial Indexes" },
      { href: "../api/create-index.html", text: "CREATE INDEX" },
      { href: "indexes.html#top", text: "this page" },
      { href: "https://elsewhere.example.org/partial.html", text: "another site" },
      { href: "../../v1/old.html", text: "the old manual" },
      { href: "mailto:docs@example.com", text: "write to us" },
      { href: "http://[bad", text: "broken" },
    ];
    expect(linkedPages(links, PAGE, BASE)).toEqual([
      { url: `${BASE}guide/partial.html`, text: "Section 8 Partial Indexes partial ones" },
      { url: `${BASE}api/create-index.html`, text: "CREATE INDEX" },
    ]);
  });
});

describe("chunkPage", () => {
  it("gives every passage of a section the section's links, and a merged short section's too", () => {
    const words = (n: number) => Array(n).fill("word").join(" ");
    const chunks = chunkPage(
      {
        title: "Indexes",
        sections: [
          { headings: ["Short"], anchor: "short", text: "A few words.", links: [{ href: "a.html", text: "A" }] },
          { headings: ["Next"], anchor: "next", text: words(300), links: [{ href: "b.html", text: "B" }] },
          { headings: ["Plain"], anchor: "plain", text: words(700), links: [{ href: "#top", text: "top" }] },
        ],
      },
      { sourceId: "s", url: PAGE, scope: BASE },
    );
    expect(chunks.map((c) => [c.anchor, c.links!.map((l) => l.url.slice(BASE.length))])).toEqual([
      ["short", ["guide/a.html", "guide/b.html"]],
      ["plain", []],
      ["plain", []],
    ]);
  });

  it("keeps each merged section's anchor and where its text starts, in every passage cut from them", () => {
    const words = (n: number, w: string) => Array(n).fill(w).join(" ");
    const chunks = chunkPage(
      {
        title: "Advanced",
        sections: [
          { headings: ["Header Ordering"], anchor: "header-ordering", text: "Headers keep their order." },
          { headings: ["Timeouts"], anchor: "timeouts", text: `Most requests should have a timeout. ${words(60, "t")}` },
          { headings: ["Timeouts", "Read"], anchor: "read", text: `${words(30, "r")}\n\n${words(30, "s")}` },
          { headings: ["Proxies"], anchor: "proxies", text: words(200, "p") },
        ],
      },
      { sourceId: "s", url: PAGE, scope: BASE, maxWords: 100, minWords: 150 },
    );
    // Sections, with the words each passage holds of them (a heading line is cut with the text before it).
    const sections = chunks.map((c) => passageSections(c).map((p) => [p.anchor, p.section, p.text.split(/\s+/).length]));
    expect(sections).toEqual([
      [
        ["header-ordering", "Header Ordering", 4],
        ["timeouts", "Timeouts", 67],
        ["read", "Timeouts › Read", 1],
      ],
      [
        ["read", "Timeouts › Read", 60],
        ["proxies", "Proxies", 1],
      ],
      [["proxies", "Proxies", 100]],
      [["proxies", "Proxies", 100]],
    ]);
    expect(chunks.map((c) => [c.anchor, c.section])).toEqual([
      ["header-ordering", "Header Ordering"],
      ["read", "Timeouts › Read"],
      ["proxies", "Proxies"],
      ["proxies", "Proxies"],
    ]);
    expect(chunks[0]!.text.slice(chunks[0]!.spans![1]!.start)).toMatch(/^Timeouts\n\nMost requests should have a timeout\./);
  });

  it("keeps no links for a section that is a list of links", () => {
    const many = Array.from({ length: MAX_LINKED_PAGES + 1 }, (_, i) => ({ href: `p${i}.html`, text: `Page ${i}` }));
    expect(linkedPages(many, PAGE, BASE)).toEqual([]);
    expect(linkedPages(many.slice(1), PAGE, BASE)).toHaveLength(MAX_LINKED_PAGES);
  });
});

describe("splitText", () => {
  const prose = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");

  it("keeps a code block whole in one piece where it fits", () => {
    const code = "```\nfor x in items:\n    print(x)\n```";
    const pieces = splitText(`${prose(8)}\n\n${code}\n\n${prose(4)}`, 10);
    expect(pieces).toContain(code);
    expect(pieces.every((p) => (p.match(/```/g) ?? []).length % 2 === 0)).toBe(true);
  });

  it("cuts a code block longer than a piece into fenced parts, lines whole", () => {
    const code = ["```", "a = 1", "    b = 2", "c = 3", "```"].join("\n");
    expect(splitText(code, 6)).toEqual(["```\na = 1\n    b = 2\n```", "```\nc = 3\n```"]);
  });
});
