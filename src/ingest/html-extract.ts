import { type HTMLElement, type Node, parse } from "node-html-parser";
import { type ExtractedPage, fenced, type Section, tidyText } from "./section.ts";

const DROP = new Set(["head", "script", "style", "noscript", "nav", "header", "footer", "aside", "form", "template", "svg", "button", "iframe"]);
/** Names of site chrome: sidebars, headers and footers, tables of contents, menus (`menu`, `mainmenu`, `submenu`). */
const CHROME = "breadcrumbs?|toc|gtoc|sidebar|footer|header|navigation|nav|\\w*menu";
/** Chrome by class, with the class names of Sphinx, DocBook and SQLite (tagline)… */
const CHROME_CLASS = new RegExp(`\\b(sphinxsidebar|related|navheader|navfooter|headerlink|tagline|${CHROME})\\b`);
/** …and by whole id (a part would also match content anchors such as `module-email.header`). */
const CHROME_ID = new RegExp(`^(${CHROME})$`);
/** Inline code: kept as a Markdown code span, so an answer quoting it shows it as code and a citation marker never reads `[1,2]` as one of its own. */
const INLINE_CODE = new Set(["code", "tt", "kbd", "samp"]);
const BLOCK = new Set(["p", "div", "li", "ul", "ol", "pre", "tr", "table", "dd", "dt", "dl", "blockquote", "section", "article", "br", "hr", "td", "th"]);
const CONTENT_ROOTS = ["main", "[role=main]", "article", "div.body", "div.document", "#content", "div.content"];
/**
 * A footnote's marker in the running text (Sphinx `role=doc-noteref`, DocBook
 * `a.footnote`/`sup.footnoteref`): "[1]" out of its page is noise, and a quoted
 * sentence would carry it as a citation of the wrong reference. The notes'
 * own text (DocBook's `div.footnote`, AsciiDoc's inline `span.footnote`) stays.
 */
const FOOTNOTE_MARKER = /\b(footnote-reference|footnoteref|citation-reference)\b/;
const isFootnoteMarker = (el: HTMLElement, tag: string, cls: string) =>
  el.getAttribute("role") === "doc-noteref" ||
  ((tag === "a" || tag === "sup") && (cls === "footnote" || FOOTNOTE_MARKER.test(cls))) ||
  // …and any in-page link that is only a bracketed label, such as a note's link back to its marker.
  (tag === "a" && (el.getAttribute("href") ?? "").startsWith("#") && /^\s*\[[\w*†‡§]{1,4}\]\s*$/u.test(el.text));

/** An empty `<a name="x"></a>` (or `id`) right before a heading, as SQLite's pages mark their sections. */
function markerBefore(heading: HTMLElement): string {
  const siblings = heading.parentNode?.childNodes ?? [];
  for (let i = siblings.indexOf(heading) - 1; i >= 0; i--) {
    const node = siblings[i]!;
    if (node.nodeType === 3 && !node.text.trim()) continue;
    if (node.nodeType !== 1) return "";
    const el = node as HTMLElement;
    const tag = el.rawTagName?.toLowerCase();
    if (tag === "hr") continue;
    if (tag !== "a" || el.text.trim()) return "";
    return el.getAttribute("id") ?? el.getAttribute("name") ?? "";
  }
  return "";
}

function anchorOf(heading: HTMLElement): string {
  if (heading.id) return heading.id;
  const inner = heading.querySelector("a[id], a[name]");
  const innerId = inner?.getAttribute("id") ?? inner?.getAttribute("name");
  if (innerId) return innerId;
  const marker = markerBefore(heading);
  if (marker) return marker;
  let node: HTMLElement | null = heading.parentNode;
  for (let depth = 0; node && depth < 4; depth++, node = node.parentNode) {
    if (node.id) return node.id;
  }
  return "";
}

/** Share of a page's text that sits inside links: a table of contents or index is mostly links. */
const NAVIGATIONAL_LINK_DENSITY = 0.5;
function linkDensity(body: HTMLElement): number {
  const total = body.text.replace(/\s+/g, "").length;
  if (total < 200) return 0;
  const linked = body.querySelectorAll("a").reduce((n, a) => n + a.text.replace(/\s+/g, "").length, 0);
  return linked / total;
}

/**
 * A reference page's one-line purpose joins its title, as a man page's NAME
 * line ("git-tag - Create, list, delete or verify a tag object") or a DocBook
 * refentry's ("CREATE INDEX — define a new index") says what the page is for
 * in words a question uses, where the title is only the command's name.
 */
function withPurpose(title: string, root: HTMLElement, sections: readonly Section[]): string {
  const name = title
    .replace(/\(\d\w*\)$/, "")
    .trim()
    .toLowerCase();
  if (!name) return title;
  // Man pages keep NAME in the page header, outside the article body.
  const nameHeading = root.querySelectorAll("h2, h3").find((h) => /^name$/i.test(h.text.trim()));
  const candidates = [nameHeading?.nextElementSibling?.text ?? "", ...sections.slice(0, 2).map((s) => s.text.split(/\n\s*\n/).find((l) => l.trim()) ?? "")];
  for (const text of candidates) {
    const line = text.replace(/\s+/g, " ").trim();
    const m = /^(.{1,80}?)\s+[-—–]\s+(.{3,160})$/u.exec(line);
    if (m && m[1]!.toLowerCase() === name) return `${title} — ${m[2]!.trim()}`;
  }
  return title;
}

const headingText = (el: HTMLElement) =>
  el.text
    .replace(/[¶#]\s*$/u, "")
    .replace(/\s+/g, " ")
    .trim();

/**
 * Keeps the article body of an HTML page (DocBook, Sphinx or hand-written),
 * drops navigation and chrome, and splits it into sections at headings.
 */
export function extractHtml(html: string): ExtractedPage {
  // <pre> is parsed like any element: Sphinx and others highlight code with <span>s, which must not reach the text.
  const root = parse(html, { blockTextElements: { script: false, style: false, noscript: false } });
  // Without a content root, the whole <html> (its <head> dropped), not <body>: node-html-parser may lose or close
  // <body> early on loose markup (SQLite's pages) and hang the content on <html>. Not the document root either,
  // whose <!DOCTYPE> is a text node.
  const body = CONTENT_ROOTS.map((s) => root.querySelector(s)).find((el): el is HTMLElement => !!el) ?? root.querySelector("html") ?? root;
  // The page's own title: the first h1 when the <title> repeats it (Sphinx adds the site's name),
  // else the <title> (SQLite's pages open with "1. Overview") without a "| Site name" tail
  // (Node.js: "File system | Node.js v18.20.4 Documentation", its h1 the site's banner), else the h1.
  const h1 = body.querySelector("h1");
  const h1Text = h1 ? headingText(h1) : "";
  const titleTag = root.querySelector("title")?.text.replace(/\s+/g, " ").trim() ?? "";
  const pageTitle = titleTag.replace(/\s+\|\s+[^|]+$/, "");
  const title = (h1Text && titleTag.includes(h1Text) ? h1Text : pageTitle || h1Text) || "";

  const sections: Section[] = [];
  const stack: Array<{ level: number; text: string }> = [];
  let current: Section = { headings: [], anchor: "", text: "" };
  const flush = () => {
    const text = tidyText(current.text);
    if (text) sections.push({ ...current, text });
  };

  const itemsSeen = new Map<HTMLElement | null, number>();
  const walk = (node: Node) => {
    if (node.nodeType === 3) {
      current.text += node.text;
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as HTMLElement;
    const tag = el.rawTagName?.toLowerCase() ?? "";
    const cls = el.getAttribute?.("class") ?? "";
    // A Sphinx footnote's text is an <aside>, which is otherwise a sidebar.
    if (DROP.has(tag) && !(tag === "aside" && el.getAttribute("role") === "doc-footnote")) return;
    if (cls && CHROME_CLASS.test(cls)) return;
    if (isFootnoteMarker(el, tag, cls)) return;
    if (el.id && CHROME_ID.test(el.id)) return;
    const level = /^h([1-6])$/.exec(tag);
    if (level) {
      flush();
      const n = Number(level[1]);
      const text = headingText(el);
      while (stack.length && stack.at(-1)!.level >= n) stack.pop();
      if (text && !(text === title && stack.length === 0)) stack.push({ level: n, text });
      current = { headings: stack.map((h) => h.text), anchor: anchorOf(el), text: "" };
      return;
    }
    if (INLINE_CODE.has(tag)) {
      const code = el.text.replace(/\s+/g, " ").trim();
      // One that holds a backtick or a line break is left as text (a span cannot hold it simply), one holding a link
      // or blocks walked for them (its lines stay lines).
      if (code && !/[`\n]/.test(el.text) && !el.querySelector("a, div, p, br, pre, li, table")) {
        current.text += `\`${code}\``;
        return;
      }
    }
    const block = BLOCK.has(tag);
    if (tag === "a") {
      const href = el.getAttribute("href");
      // DocBook titles its cross-references: "Section 11.8" titled "11.8. Partial Indexes".
      const text = el.text.replace(/\s+/g, " ").trim();
      const title = el.getAttribute("title")?.replace(/\s+/g, " ").trim();
      if (href && !href.startsWith("#")) (current.links ??= []).push({ href, text, ...(title && { title }) });
    }
    if (block) current.text += "\n";
    // Code is fenced, so answers can quote it whole; a list item is marked, so a list reads as one.
    if (tag === "pre") current.text += fenced(el.text);
    else {
      if (tag === "li") {
        const list = el.parentNode;
        // Numbered as the walk meets them (counting siblings for each item was quadratic: 32,000 items took 34 s).
        const n = (itemsSeen.get(list) ?? 0) + 1;
        itemsSeen.set(list, n);
        current.text += list?.rawTagName?.toLowerCase() === "ol" ? `${n}. ` : "- ";
      }
      for (const child of el.childNodes) walk(child);
    }
    if (block) current.text += "\n";
  };
  for (const child of body.childNodes) walk(child);
  flush();
  return { title: withPurpose(title, root, sections), sections, navigational: linkDensity(body) > NAVIGATIONAL_LINK_DENSITY };
}
