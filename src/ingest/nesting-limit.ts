/**
 * How deep a page nests, read in one linear pass before any parser sees it.
 * The parsers are not linear in depth: node-html-parser took 18 s over 32,000
 * unclosed `<div>`s (224 KB) and overflowed the stack at 10,000 nested ones;
 * micromark took 32 s over a list nested 1,000 deep and overflowed on a
 * blockquote 4,000 deep. No documentation nests like that (the deepest of the
 * 3,862 pages of the eval sources, this repository's docs and node_modules:
 * tags 102 levels, counting a Markdown page's `<T>` generics, and lines 30), so
 * such a page is refused (its source skips it) rather than parsed on the
 * server's event loop. At the limits, parsing takes about 0.2 s.
 */
export const MAX_NESTING = 1500;
/** Markdown lists and quotes cost more per level: 200 levels took micromark 0.5 s. */
export const MAX_MARKDOWN_NESTING = 100;

/**
 * Elements the parser closes by itself or that hold nothing (written in lower
 * or upper case, as it reads them): they do not nest. `option` is not among
 * them: node-html-parser nests unclosed ones.
 */
const NOT_NESTING = new Set(
  "p li dt dd tr td th thead tbody tfoot rb rt rp colgroup caption html head body br img hr input meta link area base col embed source track wbr param".split(
    " ",
  ),
);
const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 58 || c === 95;

/**
 * The deepest nesting of open tags (HTML, or the HTML and JSX inside
 * Markdown), read as a parser builds it: a close tag pops up to the element it
 * names (a stray one closes nothing), quoted attribute values may hold `<` and
 * `>`. One pass, each character read once (a regular expression over
 * `<` + letters without `>` was quadratic).
 */
function tagDepth(text: string): number {
  const stack: string[] = [];
  const open = new Map<string, number>();
  let deepest = 0;
  for (let i = text.indexOf("<"); i >= 0 && i < text.length; i = text.indexOf("<", i)) {
    let k = i + 1;
    const closing = text.charCodeAt(k) === 47;
    if (closing) k++;
    if (!isNameStart(text.charCodeAt(k))) {
      i = k;
      continue;
    }
    const nameStart = k;
    while (k < text.length && isNameChar(text.charCodeAt(k))) k++;
    const written = text.slice(nameStart, k);
    // To the tag's end, skipping quoted values.
    let end = -1;
    for (let q = k; q < text.length; q++) {
      const c = text.charCodeAt(q);
      if (c === 62) {
        end = q;
        break;
      }
      if (c === 34 || c === 39) {
        const close = text.indexOf(text[q]!, q + 1);
        if (close < 0) break;
        q = close;
      }
    }
    if (end < 0) break; // an unfinished tag: the rest is text
    i = end + 1;
    const name = written.toLowerCase();
    const selfClosing = text.charCodeAt(end - 1) === 47;
    if (selfClosing || ((written === name || written === written.toUpperCase()) && NOT_NESTING.has(name))) continue;
    if (closing) {
      if (!open.get(name)) continue;
      for (;;) {
        const top = stack.pop()!;
        open.set(top, open.get(top)! - 1);
        if (top === name) break;
      }
    } else {
      stack.push(name);
      open.set(name, (open.get(name) ?? 0) + 1);
      if (stack.length > deepest) deepest = stack.length;
    }
  }
  return deepest;
}

/**
 * Markdown's parser pays for depth on every line, about the square of it: 50
 * lines nested 100 deep took 0.8 s. Beside the deepest line, the page's sum of
 * (depth − 8)² over its lines is bounded (a real page's deep lines sum to a
 * few thousand).
 */
export const MAX_MARKDOWN_DEPTH_MASS = 40_000;

/** The deepest a Markdown line nests (its `>` markers, list markers and indentation, two columns a level), and the page's depth mass. */
function markdownNesting(text: string): { deepest: number; mass: number } {
  let deepest = 0;
  let mass = 0;
  for (const [lead] of text.matchAll(/^(?:[ \t]|>|[-*+][ \t]|\d{1,9}[.)][ \t])*/gm)) {
    let markers = 0;
    let columns = 0;
    for (const [m] of lead.matchAll(/[ \t]|>|[-*+][ \t]|\d{1,9}[.)][ \t]/g)) {
      if (m === " ") columns++;
      else if (m === "\t") columns += 4;
      else markers++;
    }
    const depth = markers + Math.floor(columns / 2);
    if (depth > 8) mass += (depth - 8) ** 2;
    deepest = Math.max(deepest, depth);
  }
  return { deepest, mass };
}

/** Markdown without its code (fenced blocks, line by line, and code spans), where `Array<string>` is no tag. */
function withoutCode(markdown: string): string {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    kept.push(line.replace(/`[^`\n]*`/g, ""));
  }
  return kept.join("\n");
}

class NestedTooDeep extends Error {}

/** Throws when a page nests past the limits above (its source then skips it). */
export function checkNesting(text: string, markdown: boolean) {
  const tags = tagDepth(markdown ? withoutCode(text) : text);
  if (tags > MAX_NESTING) throw new NestedTooDeep(`The page nests its tags ${tags} levels deep (at most ${MAX_NESTING}).`);
  if (!markdown) return;
  const { deepest, mass } = markdownNesting(text);
  if (deepest > MAX_MARKDOWN_NESTING) throw new NestedTooDeep(`The page nests its lines ${deepest} levels deep (at most ${MAX_MARKDOWN_NESTING}).`);
  if (mass > MAX_MARKDOWN_DEPTH_MASS) throw new NestedTooDeep(`The page nests too many lines deep (depth mass ${mass}, at most ${MAX_MARKDOWN_DEPTH_MASS}).`);
}
