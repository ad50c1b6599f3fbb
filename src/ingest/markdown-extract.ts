import { decodeHTML } from "entities";
import GithubSlugger from "github-slugger";
import type { Definition, Heading, Nodes, Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { mdxFromMarkdown } from "mdast-util-mdx";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { mdxjs } from "micromark-extension-mdxjs";
import { type ExtractedPage, fenced, type Section, tidyText } from "./section.ts";

/** GitHub's heading slug (a repeated heading gets `-1`, `-2`…), the usual anchor of rendered Markdown. */
export function slugify(heading: string): string {
  return new GithubSlugger().slug(heading);
}

const FRONT_MATTER = ["yaml", "toml"] as const;

/**
 * Parses Markdown (CommonMark + GFM + front matter) or MDX. MDX is strict
 * (an unbalanced `{` or `<` is an error), so a page that does not parse as
 * MDX is read as Markdown rather than dropped.
 */
function parse(source: string, mdx: boolean): Root {
  const markdown = { extensions: [gfm(), frontmatter([...FRONT_MATTER])], mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown([...FRONT_MATTER])] };
  if (mdx) {
    try {
      return fromMarkdown(source, { extensions: [...markdown.extensions, mdxjs()], mdastExtensions: [...markdown.mdastExtensions, mdxFromMarkdown()] });
    } catch {
      // not valid MDX: read it as Markdown
    }
  }
  return fromMarkdown(source, markdown);
}

/**
 * An HTML node's text: tags dropped and character references decoded, as an
 * HTML page's text is (`&amp;` is `&`). Not parsed as a document: a parser's
 * nesting costs grow faster than the text (32,000 nested tags in a block took 16 s).
 */
const stripTags = (html: string) => decodeHTML(html.replace(/<[^>]*>/g, ""));

/** A heading may name its own id, as many site generators allow: `## Install {#setup}`. */
const CUSTOM_ID = /\s*\{#([\w-]+)\}\s*$/;

/**
 * Splits Markdown/MDX into sections at its headings (ATX and setext), with
 * the heading path and GitHub's slug as anchor. Code (fenced, however nested,
 * or indented) is kept verbatim; inline markup, images, HTML tags, MDX
 * imports and expressions are dropped; each section keeps its links, inline
 * or by reference. The title is the front matter's, else the first level-1 heading.
 */
export function extractMarkdown(source: string, { mdx = false }: { mdx?: boolean } = {}): ExtractedPage {
  const tree = parse(source.replace(/\r/g, ""), mdx);
  const definitions = new Map<string, Definition>();
  const collect = (node: Nodes) => {
    if (node.type === "definition") definitions.set(node.identifier, node);
    if ("children" in node) for (const child of node.children) collect(child);
  };
  collect(tree);

  const slugger = new GithubSlugger();
  let title = "";
  const sections: Section[] = [];
  const stack: Array<{ depth: number; text: string }> = [];
  let current: Section = { headings: [], anchor: "", text: "" };
  const flush = () => {
    const text = tidyText(current.text);
    if (text) sections.push({ ...current, text });
  };
  const addLink = (href: string, text: string) => {
    if (href && !href.startsWith("#")) (current.links ??= []).push({ href, text: text.replace(/\s+/g, " ").trim() });
  };

  /** The text of inline content; links are recorded as they are read. */
  const inline = (node: Nodes, record: boolean): string => {
    switch (node.type) {
      case "text":
      case "inlineCode":
        return node.value;
      case "html":
        return stripTags(node.value);
      case "break":
        return "\n";
      case "image":
      case "imageReference":
      case "footnoteReference":
      case "mdxTextExpression":
      case "mdxFlowExpression":
      case "mdxjsEsm":
        return "";
      case "link": {
        const text = node.children.map((c) => inline(c, false)).join("");
        if (record) addLink(node.url, text);
        return text;
      }
      case "linkReference": {
        const text = node.children.map((c) => inline(c, false)).join("");
        const target = definitions.get(node.identifier);
        if (record && target) addLink(target.url, text);
        return text;
      }
      default:
        return "children" in node ? node.children.map((c) => inline(c as Nodes, record)).join("") : "";
    }
  };

  /** The text of a block, paragraphs apart; list items each on a line of their own. */
  const block = (node: RootContent): string => {
    switch (node.type) {
      case "paragraph":
        return `${inline(node, true)}\n\n`;
      // Fenced, so answers can quote the code whole.
      case "code":
        return `${fenced(node.value)}\n`;
      case "html":
        return `${stripTags(node.value)}\n\n`;
      case "list":
        return `${node.children.map((item, i) => `${node.ordered ? `${(node.start ?? 1) + i}.` : "-"} ${item.children.map(block).join("").trim()}`).join("\n")}\n\n`;
      case "table":
        return `${node.children.map((row) => row.children.map((cell) => inline(cell, true).trim()).join(" | ")).join("\n")}\n\n`;
      case "yaml":
      case "definition":
      case "thematicBreak":
      case "mdxjsEsm":
      case "mdxFlowExpression":
        return "";
      default:
        return "children" in node ? node.children.map((c) => block(c as RootContent)).join("") : "";
    }
  };

  const heading = (node: Heading) => {
    flush();
    let text = inline(node, false).replace(/\s+/g, " ").trim();
    const custom = CUSTOM_ID.exec(text);
    if (custom) text = text.slice(0, custom.index);
    // Every heading takes its slug, the title's too, as GitHub numbers repeats across the page.
    const slug = custom ? custom[1]! : slugger.slug(text);
    if (node.depth === 1 && !title) {
      title = text;
      current = { headings: [], anchor: "", text: "" };
      return;
    }
    while (stack.length && stack.at(-1)!.depth >= node.depth) stack.pop();
    stack.push({ depth: node.depth, text });
    current = { headings: stack.map((h) => h.text), anchor: slug, text: "" };
  };

  for (const node of tree.children) {
    // TOML front matter (Hugo's `+++`) has no mdast type of its own.
    const type: string = node.type;
    if (type === "yaml" || type === "toml") {
      const value = (node as { value: string }).value;
      title ||= (type === "yaml" ? /^title:\s*["']?(.+?)["']?\s*$/m : /^title\s*=\s*["']?(.+?)["']?\s*$/m).exec(value)?.[1] ?? "";
    } else if (node.type === "heading") heading(node);
    else if (type !== "toml") current.text += block(node);
  }
  flush();
  return { title, sections };
}
