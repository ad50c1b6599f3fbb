import fs from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { type HTMLElement, type Node, parse } from "node-html-parser";
import type { EvalSource } from "./debian-docs.ts";

/**
 * The text of a page's section, read from the source file by its anchor
 * with no knowledge of how docent extracts or chunks pages: what a reader
 * sees when following `page.html#anchor`.
 *
 * HTML: the element with that id (or `<a name>`). A heading, or an element
 * inside one, starts a section that runs to the next heading of the same or
 * a higher rank; an empty marker (`<a name="x"></a>`) right before a heading
 * stands for that heading; any other element (a `<section>`, DocBook's
 * `div.sect1`) is its own content. Markdown: the heading whose GitHub slug
 * is the anchor, to the next heading of the same or a higher level.
 * No anchor: the whole page.
 */
export interface PageSections {
  /** The section's text, or undefined when the page has no such anchor. */
  section(anchor: string): string | undefined;
}

interface Mark {
  start: number;
  end: number;
  /** Rank of the heading the element is or sits in. */
  level?: number;
}

const HEADING = /^h([1-6])$/i;
const SKIP = new Set(["script", "style", "head", "template"]);

export function htmlSections(html: string): PageSections {
  const root = parse(html, { blockTextElements: { script: false, style: false } });
  let text = "";
  const ids = new Map<string, Mark>();
  const headings: Array<{ start: number; level: number }> = [];
  const walk = (node: Node, level: number | undefined) => {
    if (node.nodeType === 3) {
      text += ` ${node.text}`;
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as HTMLElement;
    const tag = el.rawTagName?.toLowerCase() ?? "";
    if (SKIP.has(tag)) return;
    const heading = HEADING.exec(tag);
    const inHeading = heading ? Number(heading[1]) : level;
    if (heading) headings.push({ start: text.length, level: inHeading! });
    const start = text.length;
    for (const child of el.childNodes) walk(child, inHeading);
    const id = el.getAttribute?.("id") ?? (tag === "a" ? el.getAttribute("name") : undefined);
    if (id && !ids.has(id)) ids.set(id, { start, end: text.length, level: inHeading });
  };
  walk(root, undefined);
  const headingRun = (start: number, level: number) => {
    const end = headings.find((h) => h.start > start && h.level <= level)?.start ?? text.length;
    return text.slice(start, end);
  };
  return {
    section(anchor) {
      if (!anchor) return text;
      const mark = ids.get(anchor) ?? ids.get(decodedAnchor(anchor));
      if (!mark) return undefined;
      if (mark.level !== undefined) {
        // From the heading that holds the mark.
        const heading = [...headings].reverse().find((h) => h.start <= mark.start)!;
        return headingRun(heading.start, heading.level);
      }
      if (!text.slice(mark.start, mark.end).trim()) {
        const next = headings.find((h) => h.start >= mark.end);
        if (next && !text.slice(mark.end, next.start).trim()) return headingRun(next.start, next.level);
      }
      return text.slice(mark.start, mark.end);
    },
  };
}

export function markdownSections(markdown: string): PageSections {
  const lines = markdown.replace(/\r/g, "").split("\n");
  const slugger = new GithubSlugger();
  const headings: Array<{ line: number; level: number; slug: string }> = [];
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f && (!fence || (f[1]![0] === fence[0] && f[1]!.length >= fence.length))) fence = fence ? null : f[1]!;
    if (fence || f) return;
    const atx = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    const setext = !atx && i > 0 && lines[i - 1]!.trim() && /^\s{0,3}(=+|-+)\s*$/.exec(line);
    if (atx) headings.push({ line: i, level: atx[1]!.length, slug: slugger.slug(plainHeading(atx[2]!)) });
    else if (setext) headings.push({ line: i - 1, level: setext[1]![0] === "=" ? 1 : 2, slug: slugger.slug(plainHeading(lines[i - 1]!)) });
  });
  return {
    section(anchor) {
      if (!anchor) return renderedMarkdown(markdown);
      const heading = headings.find((h) => h.slug === anchor || h.slug === decodedAnchor(anchor));
      if (!heading) return undefined;
      const end = headings.find((h) => h.line > heading.line && h.level <= heading.level)?.line ?? lines.length;
      return renderedMarkdown(lines.slice(heading.line, end).join("\n"));
    },
  };
}

/** A heading's text as rendered: inline markup and link destinations dropped, code kept. */
const plainHeading = (text: string) =>
  text
    .replace(/\s*\{#[\w-]+\}$/, "")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]/g, "");

/** Markdown's text as a reader sees it: links and images by their words, tags dropped (emphasis marks are ignored when comparing). */
const renderedMarkdown = (text: string) =>
  text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\](\([^)]*\)|\[[^\]]*\])/g, "$1")
    .replace(/<[^>]+>/g, "");

const cache = new Map<string, PageSections>();

/** The sections of a source file (HTML or Markdown), parsed once. */
export function pageSections(file: string): PageSections {
  let sections = cache.get(file);
  if (!sections) {
    const text = fs.readFileSync(file, "utf8");
    sections = /\.(md|mdx|markdown)$/i.test(file) ? markdownSections(text) : htmlSections(text);
    cache.set(file, sections);
  }
  return sections;
}

/**
 * The section a reference (`page.html#anchor`) points to, read from its source's files: the source
 * whose base URL the page starts with, and the section's text (undefined when the page or anchor is not found).
 */
export function referencedSection(
  reference: string,
  sources: readonly EvalSource[],
  dirOf: (source: EvalSource) => string,
): { source?: EvalSource; text?: string } {
  const [page, anchor = ""] = reference.split("#");
  const source = sources.find((s) => page!.startsWith(s.base_url));
  if (!source) return {};
  const file = path.join(dirOf(source), decodeURIComponent(page!.slice(source.base_url.length)));
  return { source, text: fs.existsSync(file) ? pageSections(file).section(anchor) : undefined };
}

/** A reference's anchor as its page writes the id: percent-decoded, or as it is where it is no valid escape (`100%`). */
function decodedAnchor(anchor: string): string {
  try {
    return decodeURIComponent(anchor);
  } catch {
    return anchor;
  }
}
