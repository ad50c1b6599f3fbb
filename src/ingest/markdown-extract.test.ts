import { describe, expect, it } from "vitest";
import { extractMarkdown } from "./markdown-extract.ts";
import { splitText } from "./chunk-sections.ts";

describe("extractMarkdown", () => {
  it("splits at headings, keeps the heading path and a slug anchor, and ignores # inside code", () => {
    const page = extractMarkdown(`---\ntitle: "Guide"\n---\nimport X from 'y'\n\nIntro text.\n\n## Install\n\nRun [npm](https://npmjs.com) **install**.\n\n\`\`\`sh\n# not a heading\nnpm install\n\`\`\`\n\n### On Windows\n\nUse \`npm.cmd\`.\n`);
    expect(page.title).toBe("Guide");
    expect(page.sections).toEqual([
      { headings: [], anchor: "", text: "Intro text." },
      { headings: ["Install"], anchor: "install", text: "Run npm install.\n\n```\n# not a heading\nnpm install\n```", links: [{ href: "https://npmjs.com", text: "npm" }] },
      { headings: ["Install", "On Windows"], anchor: "on-windows", text: "Use npm.cmd." },
    ]);
  });

  it("keeps each section's links with their words, not images, in-page anchors or code", () => {
    const page = extractMarkdown(
      "# T\n\nSee [the **setup** guide](setup.md#install \"Setup\") and [keys](<api keys.md>).\n\n## More\n\n![logo](logo.png) [top](#t)\n\n```\n[not](a-link.md)\n```\n",
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
    expect(extractMarkdown("# T\n\nSend `Authorization: Bearer <key>` with <b>every</b> request.").sections[0]!.text).toBe("Send Authorization: Bearer <key> with every request.");
  });
});
