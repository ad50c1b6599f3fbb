import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { citedSentences, createAnchorPrecision } from "../bench/anchor-precision.ts";
import { htmlSections, markdownSections } from "../bench/source-sections.ts";
import { tempDir } from "./support/test-server.ts";

/** The eval's anchor precision reads sections from source files as a browser would show them: it must be right to be trusted. */
describe("sections read from source files", () => {
  const page = `<html><body>
    <section id="intro"><h1>Guide</h1><p>Intro text.</p>
      <section id="timeouts"><h2>Timeouts<a class="headerlink" href="#timeouts">¶</a></h2><p>Set a <b>timeout</b>.</p>
        <section id="read"><h3>Read</h3><p>Read timeouts.</p></section>
      </section>
      <h2><span><a class="mark" id="proxies" href="#proxies">#</a></span>Proxies</h2><p>Use a proxy.</p>
      <h3 id="socks">SOCKS</h3><p>Socks text.</p>
      <a name="auth"></a>
      <h2>Auth</h2><p>Auth text.</p>
    </section></body></html>`;
  const sections = htmlSections(page);
  const flat = (text: string | undefined) => text?.replace(/\s+/g, " ").trim();

  it("takes an element's content, subsections included", () => {
    expect(flat(sections.section("timeouts"))).toBe("Timeouts ¶ Set a timeout . Read Read timeouts.");
  });
  it("runs a heading's section to the next heading of the same or a higher rank", () => {
    expect(flat(sections.section("proxies"))).toBe("# Proxies Use a proxy. SOCKS Socks text.");
    expect(flat(sections.section("socks"))).toBe("SOCKS Socks text.");
  });
  it("reads an empty marker before a heading as that heading", () => {
    expect(flat(sections.section("auth"))).toBe("Auth Auth text.");
  });
  it("reads the whole page without an anchor, and nothing for an anchor it lacks", () => {
    expect(flat(sections.section(""))).toContain("Intro text.");
    expect(sections.section("nowhere")).toBeUndefined();
    // An anchor that is no valid percent-encoding is looked up as written, not thrown on.
    expect(sections.section("100%")).toBeUndefined();
  });
  it("finds Markdown sections by GitHub slug, not by headings inside code", () => {
    const md = markdownSections(
      "# Guide\n\n## Install\n\nRun [npm](https://npmjs.com).\n\n```sh\n# not a heading\n```\n\n### Windows\n\nUse npm.cmd.\n\nUsage\n-----\n\nCall it.\n\n## Install\n\nAgain.\n",
    );
    expect(md.section("install")).toContain("Run npm.");
    expect(md.section("install")).toContain("Use npm.cmd.");
    expect(md.section("install")).not.toContain("Call it.");
    expect(md.section("usage")).toContain("Call it.");
    expect(md.section("install-1")).toContain("Again.");
    expect(md.section("not-a-heading")).toBeUndefined();
    // A reference writes a heading's slug percent-encoded where it is not ASCII.
    expect(markdownSections("## Café\n\ntext").section("caf%C3%A9")).toContain("text");
  });
});

describe("anchor precision", () => {
  it("reads the cited sentences of an answer, leaving out code and See also", () => {
    const answer = "Use `argv[2]` for it. [1] Both say so. [1, 2]\n\n```py\nx = a[1]\n```\n\nSee also: Other page [3].";
    expect(citedSentences(answer)).toEqual([
      { text: "Use `argv[2]` for it.", numbers: [1] },
      { text: "Both say so.", numbers: [1, 2] },
    ]);
  });

  it("checks a list quoted whole item by item, without the answer's markers", () => {
    expect(citedSentences("Steps:\n\n- Stop the server.\n- Copy the file. [2]")).toEqual([
      { text: "Stop the server.", numbers: [2] },
      { text: "Copy the file.", numbers: [2] },
    ]);
    expect(citedSentences("1. Unzip it.\n2. Run prepare.sh. [1]")).toEqual([
      { text: "Unzip it.", numbers: [1] },
      { text: "Run prepare.sh.", numbers: [1] },
    ]);
  });

  it("counts a cited sentence as found only in the section its reference points to", () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, "a.html"),
      `<section id="one"><h2>One</h2><p>First  sentence here.</p></section><section id="two"><h2>Two</h2><p>Second sentence.</p></section>`,
    );
    const precision = createAnchorPrecision([{ slug: "s", name: "S", debian: "", dir: "", base_url: "https://s.example/", description: "" }], () => dir);
    precision.record("First sentence here. [1] Second sentence. [1, 2]", ["https://s.example/a.html#one", "https://s.example/a.html#two"]);
    const summary = precision.summary();
    expect([summary.found, summary.cited]).toEqual([2, 3]);
    expect(summary.misses).toHaveLength(1);
    expect(summary.misses[0]).toContain("a.html#one");
  });
});
