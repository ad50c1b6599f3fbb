import { describe, expect, it } from "vitest";
import { extractHtml } from "./html-extract.ts";

const docbook = `<!DOCTYPE html><html><head><title>11.8. Partial Indexes</title></head><body>
<div class="navheader"><table><tr><td><a href="indexes-ordering.html">Prev</a></td><td>Up</td></tr></table></div>
<div class="sect1" id="INDEXES-PARTIAL"><div class="titlepage"><div><div><h2 class="title">11.8. Partial Indexes</h2></div></div></div>
<p>A <em>partial index</em> is an index built over a subset of a table.</p>
<div class="example" id="INDEXES-PARTIAL-EX1"><div class="titlepage"><h3>Example 11.1. Setting up a Partial Index</h3></div>
<pre class="programlisting">CREATE INDEX orders_unbilled_index ON orders (order_nr)
    WHERE billed is not true;</pre></div></div>
<div class="navfooter"><a href="indexes-examine.html">Next</a></div></body></html>`;

const sphinx = `<html><head><title>logging — Logging facility for Python — Python 3.11 documentation</title></head><body>
<div class="related" role="navigation"><ul><li><a href="index.html">index</a></li></ul></div>
<div class="document"><div class="body" role="main">
<section id="module-logging"><h1>logging — Logging facility for Python<a class="headerlink" href="#module-logging">¶</a></h1>
<p>This module defines functions and classes which implement a flexible event logging system.</p>
<section id="logger-objects"><h2>Logger Objects<a class="headerlink" href="#logger-objects">¶</a></h2>
<p>Loggers have the following attributes and methods.</p></section></section></div></div>
<div class="sphinxsidebar" role="navigation"><h3>Table of Contents</h3><p>sidebar text</p></div>
<div class="footer">© Copyright</div></body></html>`;

describe("extractHtml", () => {
  it("keeps a DocBook page's body, drops navigation, and anchors sections at their ids", () => {
    const page = extractHtml(docbook);
    expect(page.title).toBe("11.8. Partial Indexes");
    expect(page.sections).toHaveLength(2);
    expect(page.sections[0]).toMatchObject({ headings: [], anchor: "INDEXES-PARTIAL" });
    expect(page.sections[0]!.text).toBe("A partial index is an index built over a subset of a table.");
    expect(page.sections[1]).toMatchObject({ headings: ["Example 11.1. Setting up a Partial Index"], anchor: "INDEXES-PARTIAL-EX1" });
    expect(page.sections[1]!.text).toContain("WHERE billed is not true;");
    const all = JSON.stringify(page);
    expect(all).not.toContain("Prev");
    expect(all).not.toContain("Next");
  });

  it("keeps a Sphinx page's article, without sidebar, footer or header links", () => {
    const page = extractHtml(sphinx);
    expect(page.title).toBe("logging — Logging facility for Python");
    expect(page.sections.map((s) => [s.headings, s.anchor])).toEqual([
      [[], "module-logging"],
      [["Logger Objects"], "logger-objects"],
    ]);
    const all = JSON.stringify(page);
    expect(all).not.toMatch(/sidebar text|Copyright|¶|Table of Contents/);
  });
});
