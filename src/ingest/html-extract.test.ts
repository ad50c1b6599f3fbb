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

  it("keeps inline code as a code span, so a quoted `[1,2] == (1,2)` reads as code, not as citations", () => {
    const html = `<html><body><main><p>For example, <code><span class="pre">[1,2]</span> <span class="pre">==</span> <span class="pre">(1,2)</span></code> is false; run <kbd>q</kbd> or see <a href="x.html"><code>sorted()</code></a> and <code><a href="y.html">y</a></code>.</p></main></body></html>`;
    const page = extractHtml(html);
    expect(page.sections[0]!.text).toBe("For example, `[1,2] == (1,2)` is false; run `q` or see `sorted()` and y.");
    expect(page.sections[0]!.links?.map((l) => l.href)).toEqual(["x.html", "y.html"]);
    // Code holding blocks keeps its lines apart.
    const blocks = extractHtml("<html><body><main><p>Run:</p><code><div>a()</div><div>b()</div></code></main></body></html>");
    expect(blocks.sections[0]!.text).toMatch(/a\(\)\s*\n\s*b\(\)/);
  });

  it("reads pathological pages in linear time: 32,000 list items or code blocks", () => {
    for (const body of [`<ol>${"<li>item word</li>".repeat(32_000)}</ol>`, "<pre>code x</pre>".repeat(32_000)]) {
      const started = performance.now();
      const page = extractHtml(`<html><body><main><h1>T</h1>${body}</main></body></html>`);
      expect(page.sections[0]!.text.length).toBeGreaterThan(200_000);
      // Quadratic, these took 34 s and 6 s; linear, well under one.
      expect(performance.now() - started).toBeLessThan(3000);
    }
  });

  it("drops footnote markers, which a quoted sentence would carry as a citation like [1], and keeps the footnotes' text", () => {
    const page = extractHtml(`<html><head><title>Quickstart</title></head><body><div class="body" role="main">
<section id="templates"><h1>Templates</h1>
<p>Inside templates you also have access to the <code>config</code> and <code>g</code><a class="footnote-reference brackets" href="#id3" id="id2" role="doc-noteref"><span class="fn-bracket">[</span>1<span class="fn-bracket">]</span></a> objects.</p>
<p>Numeric types<a href="#ftn.x" class="footnote"><sup class="footnote" id="x">[7]</sup></a> and real<a href="#ftn.y" class="footnoteref"><sup class="footnoteref">[a]</sup></a> map to double.</p>
<p>Send it to the maintainer<span class="footnote"><br />[The current maintainer: Junio]</span> by mail.</p>
<aside class="footnote brackets" id="id3" role="doc-footnote"><span class="label">1</span><p>Unsure what the g object is?</p></aside>
<div class="footnotes"><div id="ftn.x" class="footnote"><p><a href="#x" class="para"><sup class="para">[7] </sup></a>Precision depends on the platform.</p></div></div>
</section></div></body></html>`);
    const text = page.sections.map((s) => s.text).join("\n");
    expect(text).toContain("access to the `config` and `g` objects.");
    expect(text).toContain("Numeric types and real map to double.");
    expect(text).not.toMatch(/\[1\]|\[7\]|\[a\]/);
    // A footnote's own text stays: inline (AsciiDoc) and at the end of the page (DocBook).
    expect(text).toContain("[The current maintainer: Junio]");
    expect(text).toContain("Precision depends on the platform.");
    expect(text).toContain("Unsure what the g object is?");
  });

  it("drops a hand-written site's menus, tagline and table of contents, and never the document's doctype", () => {
    // As SQLite's pages: no <main>, chrome in classed <div>s.
    const page = extractHtml(`<!DOCTYPE html>
<html><head><title>ATTACH DATABASE</title>
<!-- path= -->
</head>
<body>
<div class=nosearch><div class="tagline desktoponly">Small. Fast. Reliable.<br>Choose any three.</div>
<div class="menu mainmenu"><ul><li><a href="index.html">Home</a><li><a href="download.html">Download</a></ul></div>
<div class="menu submenu" id="submenu"><ul><li><a href="support.html">Support</a></ul></div></div>
<details id="toc" open><summary>Table of contents</summary><ul><li><a href="#overview">Overview</a></li></ul></details>
<h1 id="overview">1. Overview</h1>
<p>The ATTACH DATABASE statement adds another database file to the current database connection.</p>
</body></html>`);
    const all = JSON.stringify(page);
    expect(all).not.toMatch(/DOCTYPE|Small\. Fast|Home|Download|Support|Table of contents/);
    expect(page.sections.at(-1)).toMatchObject({ headings: ["1. Overview"], anchor: "overview" });
    expect(page.sections.at(-1)!.text).toBe("The ATTACH DATABASE statement adds another database file to the current database connection.");
  });

  it("keeps an article that loose markup leaves outside <body>", () => {
    // A stray end tag and a second <body> (as on some of SQLite's pages): the parser closes <body> after the
    // chrome and hangs the article on <html>.
    const page = extractHtml(`<html><head><title>BLOBs</title></head>
<body>
<div class="menu"><a href="index.html">Home</a>
</div>
</div>
<body>
<h1>Internal Versus External BLOBs</h1>
<p>Reads are faster when small BLOBs are stored in the database.</p>`);
    expect(page.sections.map((s) => s.text)).toEqual(["Reads are faster when small BLOBs are stored in the database."]);
  });

  it("anchors a heading at the empty named anchor just before it, as SQLite's pages mark sections", () => {
    const page = extractHtml(`<html><body><div id="content"><h1>Result Codes</h1><p>Intro.</p>
      <!-- a rule --><a name="readonly_recovery"></a>
      <h3>(264) SQLITE_READONLY_RECOVERY</h3><p>Recovery text.</p>
      <hr><a name="v3"></a><h3>Version 3</h3><p>Version text.</p>
      <a href="x.html">a link</a><h3>After a link</h3><p>Linked.</p></div></body></html>`);
    expect(page.sections.map((s) => [s.headings.at(-1), s.anchor])).toEqual([
      [undefined, "content"],
      ["(264) SQLITE_READONLY_RECOVERY", "readonly_recovery"],
      ["Version 3", "v3"],
      ["After a link", "content"],
    ]);
  });

  it("drops chrome by whole id only, so content anchors that contain such a word stay", () => {
    const page = extractHtml(`<html><head><title>email.header</title></head><body><div class="body" role="main">
<section id="module-email.header"><h1>email.header: Internationalized headers</h1><p>This module is part of the legacy email API.</p></section>
<div id="sidebar">Quick search</div></div></body></html>`);
    expect(page.sections.map((s) => s.text)).toEqual(["This module is part of the legacy email API."]);
  });

  it("takes the page's title without the site's name when the h1 is the site's banner", () => {
    const page = extractHtml(`<html><head><title>File system | Node.js v18.20.4 Documentation</title></head><body>
<div id="content"><header><h1>Node.js v18.20.4 documentation</h1></header>
<div id="apicontent"><h2 id="file-system">File system</h2><p>The node:fs module enables interacting with the file system.</p></div></div></body></html>`);
    expect(page.title).toBe("File system");
  });

  it("keeps the text of highlighted code fenced, without its markup, entities decoded, lines and indentation kept", () => {
    const page = extractHtml(`<html><head><title>enum</title></head><body><div class="body" role="main"><section id="planet"><h2>Planet</h2>
<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="gp">&gt;&gt;&gt; </span><span class="n">dir</span><span class="p">(</span><span class="n">Planet</span><span class="p">)</span>
<span class="go">[&#39;EARTH&#39;, &#39;JUPITER&#39;]</span>
<span class="k">if</span> <span class="n">a</span> <span class="o">&lt;</span> <span class="n">b</span><span class="p">:</span>
    <span class="k">pass</span>
</pre></div></div></section></div></body></html>`);
    expect(page.sections[0]!.text).toBe("```\n>>> dir(Planet)\n['EARTH', 'JUPITER']\nif a < b:\n    pass\n```");
  });

  it("marks list items, numbered in an ordered list, so a list reads as one", () => {
    const page = extractHtml(
      `<html><body><main><p>Steps:</p><ol><li>Install it.</li><li>Run   it.</li></ol><ul><li><p>One</p></li><li>Two</li></ul></main></body></html>`,
    );
    expect(page.sections[0]!.text).toBe("Steps:\n\n1. Install it.\n\n2. Run it.\n\n- One\n\n- Two");
  });

  it("adds a reference page's purpose line to its title: a man page's NAME, a DocBook refentry's name line", () => {
    const manPage = `<html><head><title>git-stash(1)</title></head><body class="manpage">
<div id="header"><h1>git-stash(1) Manual Page</h1><h2>NAME</h2><div class="sectionbody"><p>git-stash -
   Stash the changes in a dirty working directory away</p></div></div>
<div id="content"><div class="sect1"><h2 id="_synopsis">SYNOPSIS</h2><div class="sectionbody"><pre>git stash list</pre></div></div>
<div class="sect1"><h2 id="_description">DESCRIPTION</h2><div class="sectionbody"><p>Use git stash when you want to record the current state.</p></div></div></div></body></html>`;
    expect(extractHtml(manPage).title).toBe("git-stash(1) — Stash the changes in a dirty working directory away");
    const refentry = `<html><head><title>CREATE INDEX</title></head><body><div class="refentry" id="SQL-CREATEINDEX">
<div class="refnamediv"><h2><span class="refentrytitle">CREATE INDEX</span></h2><p>CREATE INDEX — define a new index</p></div>
<div class="refsect1"><h2>Description</h2><p>CREATE INDEX constructs an index on the specified column(s).</p></div></div></body></html>`;
    expect(extractHtml(refentry).title).toBe("CREATE INDEX — define a new index");
    // A first line that merely contains a dash is not a purpose line.
    expect(extractHtml(docbook.replace("A <em>partial index</em> is", "Indexes - partial ones - are")).title).toBe("11.8. Partial Indexes");
  });

  it("marks a page whose text is half links (a table of contents, a keyword index) as navigational", () => {
    const links = Array.from({ length: 40 }, (_, i) => `<li><a href="p${i}.html">Section ${i} title words</a></li>`).join("");
    const toc = `<html><head><title>Chapter 5. Data Definition</title></head><body><div id="content"><h1>Chapter 5. Data Definition</h1>
${"<p>This chapter covers how one creates the database structures that will hold one's data.</p>".repeat(6)}<ul>${links}</ul></div></body></html>`;
    // About 60% of the text is link text: more than half, less than the 65% a stricter rule would need.
    expect(extractHtml(toc).navigational).toBe(true);
    expect(extractHtml(docbook).navigational).toBe(false);
  });

  it("keeps each section's links with their text and title, not the chrome's or in-page ones", () => {
    const page = extractHtml(
      docbook
        .replace(
          "is an index built over a subset of a table.",
          'is an index over some rows (see <a class="xref" href="indexes-unique.html#X" title="11.6. Unique Indexes">Section 11.6</a>, <a href="#INDEXES-PARTIAL-EX1">below</a>).',
        )
        .replace("</pre></div></div>", '</pre><p>Compare <a href="sql-createindex.html">CREATE INDEX</a>.</p></div></div>'),
    );
    expect(page.sections.map((s) => s.links ?? [])).toEqual([
      [{ href: "indexes-unique.html#X", text: "Section 11.6", title: "11.6. Unique Indexes" }],
      [{ href: "sql-createindex.html", text: "CREATE INDEX" }],
    ]);
    expect(JSON.stringify(page)).not.toContain("indexes-ordering.html");
  });
});
