// The playground runs this module in the browser as it is (/playground/markdown-blocks.js, with citations.js): it imports nothing, and must not.

/**
 * What the citation reader knows of a reply's Markdown blocks at a line's start: whether it is inside code, and which
 * list items hold it (CommonMark: code in a list item is indented past the item's content; a fence in an item ends with
 * it). Read line by line as a reply streams, so the reader never waits for a whole reply to know what is code.
 */
export interface Blocks {
  /** An open fence's run (```` ``` ````, `~~~~`), or null. */
  fence: string | null;
  /** The content column of the list item holding the fence (0: none): a line indented less ends the item and the fence. */
  fenceIndent: number;
  /** How many block quotes hold the fence: a line with fewer ends it. */
  fenceQuotes: number;
  /** Inside an indented code block: -1 not, else the column its lines are indented to. */
  indented: number;
  /** The content columns of the open list items, innermost last. */
  lists: readonly number[];
  /** Whether a paragraph is open: a line indented less may then continue it (lazily) rather than end its item. */
  para: boolean;
  /** Whether the line before was blank (or there was none). */
  afterBlank: boolean;
  /** Whether that paragraph is a block quote's: a line outside the quote continues it only lazily. */
  quotePara: boolean;
  /**
   * Whether the blocks are read as a renderer reads them. A reply nesting what is not modelled here (a list in a quote,
   * a quote in a list item, tabs in a quote…) turns it false for good: from then on code is only `unsure`.
   */
  known: boolean;
  /** Whether the code being read is code to a renderer for sure (it opened while `known`). */
  sure: boolean;
}

export const NO_BLOCKS: Blocks = {
  fence: null,
  fenceIndent: 0,
  fenceQuotes: 0,
  indented: -1,
  lists: [],
  para: false,
  afterBlank: true,
  quotePara: false,
  known: true,
  sure: true,
};

/**
 * What a line is: prose; `code` (code to a renderer for sure: left exactly as written); or `unsure` (code as read
 * here, but maybe prose to a renderer: its markers are left alone, and what could make a link or load an address is
 * still escaped).
 */
export type LineKind = "prose" | "code" | "unsure";

/** Open list items kept (a reply nests a few at most); past it the blocks are no longer `known`. */
const MAX_LISTS = 32;
/** Block quote markers at a line's start. */
const QUOTES = /(?: {0,3}>[ \t]?)*/y;
const FENCE_RUN = /(`{3,}|~{3,})([^\n]*)/y;
const LIST_MARKER = /(?:[-+*]|\d{1,9}[.)])(?=[ \t\n]|$)/y;
const THEMATIC_BREAK = /([-*_])[ \t]*(?:\1[ \t]*){2,}(?:\n|$)/y;
const HEADING = /#{1,6}(?=[ \t\n]|$)/y;
/** A setext heading's underline (a single `-` too), which ends the paragraph above it. */
const SETEXT = /(?:=+|-+)[ \t]*(?:\n|$)/y;
/** A line so far made only of what may still turn out a block's start (a quote, fence, list item, heading or break). */
export const UNSETTLED_LINE = /^[ \t>`~*_=#+\-\d.)]*$/;
/** A line so far that opens or closes a fence: its info string decides, so it waits for its end. */
export const FENCE_LINE = /^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?(?:`{3,}|~{3,})/;

const at = (pattern: RegExp, text: string, index: number) => {
  pattern.lastIndex = index;
  return pattern.exec(text);
};
const pastSpace = (text: string, index: number) => {
  while (text[index] === " " || text[index] === "\t") index++;
  return index;
};
/** The column of `index` in its line (tabs to stops of 4, as CommonMark reads indentation). */
function columnOf(text: string, lineStart: number, index: number): number {
  let col = 0;
  for (let k = lineStart; k < index; k++) col = text[k] === "\t" ? col + 4 - (col % 4) : col + 1;
  return col;
}
/** The content column of the innermost open item a line at `col` is indented into (0: none). */
const innermostAt = (lists: readonly number[], col: number) => {
  for (let k = lists.length - 1; k >= 0; k--) if (lists[k]! <= col) return lists[k]!;
  return 0;
};
const endsAt = (text: string, index: number) => index >= text.length || text[index] === "\n";
/** The fence a line opens at `index`, if any: a backtick fence's info string holds no backtick. */
function fenceAt(text: string, index: number): string | null {
  const f = at(FENCE_RUN, text, index);
  return f && !(f[1]![0] === "`" && f[2]!.includes("`")) ? f[1]! : null;
}
const closes = (text: string, index: number, fence: string) => {
  const f = at(FENCE_RUN, text, index);
  return f !== null && f[1]![0] === fence[0] && f[1]!.length >= fence.length && /^[ \t]*$/.test(f[2]!);
};

/**
 * Reads the line starting at `start` and updates `b` (a copy the caller owns) to the blocks after it. Lists, fences and
 * indented code outside block quotes are read as CommonMark reads them; fences in quotes too, when nothing else nests.
 */
export function readLine(text: string, start: number, b: Blocks & { lists: number[] }, long = false): LineKind {
  // A line too long to hold whole while it streams (a fence line, an underline…) is not classified by its start only,
  // which could differ from its whole: from it on, nothing is known for sure.
  if (long) {
    Object.assign(b, { known: false, sure: false });
    if (b.fence || b.indented >= 0) return "unsure";
    b.para = true;
    return "prose";
  }
  const quoted = at(QUOTES, text, start)![0];
  const quotes = quoted.split(">").length - 1;
  const first = pastSpace(text, start);
  const col = columnOf(text, start, first);
  const empty = endsAt(text, first);
  const code = (): LineKind => (b.sure ? "code" : "unsure");
  const popTo = (column: number) => {
    while (b.lists.length > 0 && column < b.lists.at(-1)!) b.lists.pop();
  };
  const openFence = (run: string, quotes: number, indent: number): LineKind => {
    Object.assign(b, { fence: run, fenceQuotes: quotes, fenceIndent: indent, sure: b.known, para: false });
    return code();
  };
  if (b.fence) {
    const inner = pastSpace(text, start + quoted.length);
    // A fence ends with the quote or list item holding it (no line of code is lazy).
    if (quotes < b.fenceQuotes || (!empty && b.fenceQuotes === 0 && col < b.fenceIndent)) {
      // Renderers differ on a fence left unclosed in a list item (marked keeps reading it): not modelled.
      if (b.fenceQuotes === 0) b.known = false;
      b.fence = null;
      popTo(col);
    } else if (
      b.fenceQuotes === 0
        ? col < b.fenceIndent + 4 && closes(text, first, b.fence)
        : quotes === b.fenceQuotes && inner - start - quoted.length < 4 && closes(text, inner, b.fence)
    ) {
      const kind = code();
      Object.assign(b, { fence: null, para: false });
      return kind;
    } else return code();
  }
  if (b.indented >= 0) {
    if (empty || (quotes === 0 && col >= b.indented)) return code();
    b.indented = -1;
  }
  const afterBlank = b.afterBlank;
  b.afterBlank = empty;
  if (empty) {
    b.para = false;
    return "prose";
  }
  if (quotes > 0) {
    // A quote is no lazy line: the list items it is not indented into end. One inside an item is not modelled.
    popTo(col);
    const inner = start + quoted.length;
    const content = pastSpace(text, inner);
    if (b.lists.length > 0 || /\t/.test(text.slice(start, content))) b.known = false;
    if (content - inner < 4) {
      const run = fenceAt(text, content);
      if (run) return openFence(run, quotes, 0);
      if (at(LIST_MARKER, text, content)) b.known = false;
    } else if (!b.para) b.known = false;
    b.para = !endsAt(text, content);
    b.quotePara = b.para;
    return "prose";
  }
  // With no paragraph open, no line is lazy: the items it is not indented into end.
  if (!b.para) popTo(col);
  const top = b.lists.at(-1) ?? 0;
  if (col >= top + 4) {
    // Indented code cannot interrupt a paragraph: the line continues it.
    if (b.para) return "prose";
    // In a list item it is read as code, but not as surely: marked, for one, reads some of it as the item's text.
    Object.assign(b, { indented: top + 4, sure: b.known && top === 0 });
    return code();
  }
  // A line four columns past the innermost item it is indented into opens no block there: with a paragraph open (the
  // only way here), it is that paragraph's lazy continuation, whatever it looks like (a fence, a heading, an item).
  if (col >= innermostAt(b.lists, col) + 4) return "prose";
  const run = fenceAt(text, first);
  if (run) {
    popTo(col);
    return openFence(run, 0, b.lists.at(-1) ?? 0);
  }
  if (at(THEMATIC_BREAK, text, first) || at(HEADING, text, first)) {
    popTo(col);
    b.para = false;
    return "prose";
  }
  if (b.para && !b.quotePara && col >= top && at(SETEXT, text, first)) {
    // An underline is read otherwise by some renderers (marked: `-`, or `===` under a list's lazy line): not modelled.
    b.known = false;
    b.para = false;
    return "prose";
  }
  const marker = at(LIST_MARKER, text, first)?.[0];
  if (marker) {
    const content = pastSpace(text, first + marker.length);
    const emptyItem = endsAt(text, content);
    // Only a bullet or `1.` item with content interrupts a paragraph of the item (or document) the line is in; any
    // other marker line continues it. A paragraph of a quote or of a deeper item is no obstacle.
    const interrupts = !emptyItem && (/^[-+*]$/.test(marker) || /^0*1[.)]$/.test(marker));
    if (b.para && !b.quotePara && !interrupts && col >= top) return "prose";
    // Not modelled: an empty item (it ends at a blank line after it), and such an item right after another block,
    // where renderers differ (micromark reads `-` or `2)` after indented code as a paragraph).
    if (emptyItem || (!interrupts && !afterBlank)) b.known = false;
    popTo(col);
    b.quotePara = false;
    const gap = columnOf(text, start, content) - col - marker.length;
    if (b.lists.length < MAX_LISTS) b.lists.push(col + marker.length + (gap >= 5 || emptyItem ? 1 : gap));
    else b.known = false;
    // An item opening with indented code, or empty: no paragraph is open.
    b.para = !emptyItem && gap < 5;
    if (!b.para) return "prose";
    const inItem = fenceAt(text, content);
    if (inItem) return openFence(inItem, 0, b.lists.at(-1)!);
    if (at(HEADING, text, content)) b.para = false;
    else if (text[content] === ">" || at(LIST_MARKER, text, content) || at(THEMATIC_BREAK, text, content)) b.known = false;
    return "prose";
  }
  // A paragraph's line, or with none open, the first of its own.
  if (!b.para) b.quotePara = false;
  b.para = true;
  return "prose";
}
