import { describe, expect, it } from "vitest";
import { splitText } from "./chunk-sections.ts";
import { extractMarkdown } from "./markdown-extract.ts";

describe("extractMarkdown", () => {
  it("splits at headings, keeps the heading path and a slug anchor, and ignores # inside code", () => {
    const page = extractMarkdown(
      `---\ntitle: "Guide"\n---\nimport X from 'y'\n\nIntro text.\n\n## Install\n\nRun [npm](https://npmjs.com) **install**.\n\n\`\`\`sh\n# not a heading\nnpm install\n\`\`\`\n\n### On Windows\n\nUse \`npm.cmd\`.\n`,
      { mdx: true },
    );
    expect(page.title).toBe("Guide");
    expect(page.sections).toEqual([
      { headings: [], anchor: "", text: "Intro text." },
      {
        headings: ["Install"],
        anchor: "install",
        text: "Run npm install.\n\n```\n# not a heading\nnpm install\n```",
        links: [{ href: "https://npmjs.com", text: "npm" }],
      },
      { headings: ["Install", "On Windows"], anchor: "on-windows", text: "Use npm.cmd." },
    ]);
  });

  it("keeps each section's links with their words, not images, in-page anchors or code", () => {
    const page = extractMarkdown(
      '# T\n\nSee [the **setup** guide](setup.md#install "Setup") and [keys](<api keys.md>).\n\n## More\n\n![logo](logo.png) [top](#t)\n\n```\n[not](a-link.md)\n```\n',
    );
    expect(page.sections.map((s) => s.links ?? [])).toEqual([
      [
        { href: "setup.md#install", text: "the setup guide" },
        { href: "api keys.md", text: "keys" },
      ],
      [],
    ]);
  });

  it("takes the first level-1 heading as the title", () => {
    expect(extractMarkdown("# API keys\n\nText.").title).toBe("API keys");
  });

  it("reads an HTML block's text as an HTML page's: tags dropped, character references decoded", () => {
    const text = extractMarkdown("# Credits\n\n<p>Tom &amp; Jerry &lt;3 &copy; 2024.</p>\n")
      .sections.map((s) => s.text)
      .join("\n");
    expect(text).toContain("Tom & Jerry <3 © 2024.");
    // Read as text, not parsed as a document: 32,000 nested tags (hidden from the nesting check in backticks) cost a parser 16 s.
    const started = performance.now();
    const deep = extractMarkdown(`# T\n\n<div>\`${"<div>".repeat(32_000)}x\`</div>\n`);
    expect(deep.sections.map((s) => s.text).join("")).toContain("x");
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe("extractMarkdown with a real parser", () => {
  it("splits at setext headings too", () => {
    const page = extractMarkdown("Guide\n=====\n\nIntro.\n\nInstall\n-------\n\nRun the installer.\n");
    expect(page.title).toBe("Guide");
    expect(page.sections).toEqual([
      { headings: [], anchor: "", text: "Intro." },
      { headings: ["Install"], anchor: "install", text: "Run the installer." },
    ]);
  });

  it("resolves reference links, wherever their definition stands", () => {
    const page = extractMarkdown('# T\n\nRead [the guide][guide] and [Setup].\n\n## Later\n\nText.\n\n[guide]: guide.md "Guide"\n[setup]: <setup page.md>\n');
    expect(page.sections[0]).toEqual({
      headings: [],
      anchor: "",
      text: "Read the guide and Setup.",
      links: [
        { href: "guide.md", text: "the guide" },
        { href: "setup page.md", text: "Setup" },
      ],
    });
    expect(page.sections[1]!.text).toBe("Text.");
  });

  it("keeps a fence inside a longer fence as code, headings in it included", () => {
    const page = extractMarkdown("# T\n\n## Fences\n\n````md\n```sh\n# not a heading\n```\n````\n\nAfter.\n\n~~~\n## nor this\n~~~\n");
    expect(page.sections).toEqual([
      { headings: ["Fences"], anchor: "fences", text: "````\n```sh\n# not a heading\n```\n````\n\nAfter.\n\n```\n## nor this\n```" },
    ]);
  });

  it("numbers repeated headings' anchors as GitHub does", () => {
    const page = extractMarkdown("# Options\n\n## Options\n\nA.\n\n## Options\n\nB.\n\n## Custom {#my-id}\n\nC.\n");
    expect(page.sections.map((s) => [s.headings.at(-1), s.anchor])).toEqual([
      ["Options", "options-1"],
      ["Options", "options-2"],
      ["Custom", "my-id"],
    ]);
  });

  it("reads MDX: JSX children are text, imports and expressions are not; a page that is not valid MDX is read as Markdown", () => {
    const page = extractMarkdown(
      "import Tabs from './tabs'\nexport const meta = {\n  title: 'x',\n}\n\n# Title\n\n<Note kind=\"tip\">\n\nKeep **keys** secret {props.when}.\n\n</Note>\n",
      { mdx: true },
    );
    expect(page).toEqual({ title: "Title", sections: [{ headings: [], anchor: "", text: "Keep keys secret ." }] });
    const loose = extractMarkdown("# T\n\nUse a {placeholder and x < y.\n", { mdx: true });
    expect(loose.sections[0]!.text).toBe("Use a {placeholder and x < y.");
  });

  it("takes TOML front matter's title", () => {
    expect(extractMarkdown('+++\ntitle = "Hugo page"\n+++\n\nText.').title).toBe("Hugo page");
  });
});

describe("splitText", () => {
  it("keeps pieces under the word limit at paragraph boundaries", () => {
    const para = (n: number, w: string) => Array(n).fill(w).join(" ");
    const pieces = splitText([para(40, "a"), para(40, "b"), para(40, "c")].join("\n\n"), 90);
    expect(pieces).toHaveLength(2);
    expect(pieces[0]).toContain("b");
    expect(pieces[1]).toBe(para(40, "c"));
    expect(splitText(para(250, "x"), 100).map((p) => p.split(" ").length)).toEqual([100, 100, 50]);
  });

  it("keeps each piece's paragraph and line breaks", () => {
    const para = (n: number, w: string) => Array(n).fill(w).join(" ");
    const pieces = splitText(`Overview\n\n${para(30, "a")}\n${para(30, "b")}\n\n${para(60, "c")}`, 70);
    expect(pieces).toEqual([`Overview\n\n${para(30, "a")}\n${para(30, "b")}`, para(60, "c")]);
  });
});

describe("markdown inline code", () => {
  it("keeps angle brackets inside code spans and drops real tags", () => {
    expect(extractMarkdown("# T\n\nSend `Authorization: Bearer <key>` with <b>every</b> request.").sections[0]!.text).toBe(
      "Send Authorization: Bearer <key> with every request.",
    );
  });
});
