/**
 * How deep a page nests, read in one linear pass before any parser sees it.
 * The parsers are not linear in depth: node-html-parser took 18 s over 32,000
 * unclosed `<div>`s (224 KB) and overflowed the stack at 10,000 nested ones;
 * micromark took 32 s over a list nested 1,000 deep and overflowed on a
 * blockquote 4,000 deep. No documentation nests like that (the deepest of the
 * 3,862 pages of the eval sources, this repository's docs and node_modules:
 * tags 123 levels, counting an MDX page's `<T>` generics, and lines 30), so
 * such a page is refused (its source skips it) rather than parsed on the
 * server's event loop. At the limits, parsing takes about 0.2 s.
 */
export const MAX_NESTING = 1500;
/** Markdown lists and quotes cost more per level: 200 levels took micromark 0.5 s. */
export const MAX_MARKDOWN_NESTING = 100;

/** Elements whose end tag may be left out (and the void ones, which have none): they do not count as nesting. */
const NOT_NESTING = new Set(
  "p li dt dd tr td th thead tbody tfoot option optgroup rb rt rp colgroup caption html head body br img hr input meta link area base col embed source track wbr param".split(
    " ",
  ),
);
const TAG = /<(\/?)([A-Za-z][\w:.-]*)[^<>]*?(\/?)>/g;

/** The deepest nesting of open tags (HTML, or the HTML and JSX inside Markdown). */
export function tagDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [, closing, name, selfClosing] of text.matchAll(TAG)) {
    if (selfClosing || NOT_NESTING.has(name!.toLowerCase())) continue;
    if (closing) depth = Math.max(0, depth - 1);
    else if (++depth > deepest) deepest = depth;
  }
  return deepest;
}

/** The deepest a Markdown line nests by its indentation (two spaces a list level) or its `>` markers. */
export function markdownDepth(text: string): number {
  let deepest = 0;
  for (const [, lead] of text.matchAll(/^([ \t>]*)/gm)) {
    let quotes = 0;
    let columns = 0;
    for (const c of lead!) {
      if (c === ">") quotes++;
      else columns += c === "\t" ? 4 : 1;
    }
    deepest = Math.max(deepest, quotes, Math.floor(columns / 2));
  }
  return deepest;
}

export class NestedTooDeep extends Error {}

/** Markdown without its code (fenced blocks and code spans), where `Array<string>` is no tag. */
const withoutCode = (markdown: string) => markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "").replace(/`[^`\n]*`/g, "");

export function checkNesting(text: string, markdown: boolean) {
  const tags = tagDepth(markdown ? withoutCode(text) : text);
  if (tags > MAX_NESTING) throw new NestedTooDeep(`The page nests its tags ${tags} levels deep (at most ${MAX_NESTING}).`);
  const lines = markdown ? markdownDepth(text) : 0;
  if (lines > MAX_MARKDOWN_NESTING) throw new NestedTooDeep(`The page nests its lines ${lines} levels deep (at most ${MAX_MARKDOWN_NESTING}).`);
}
