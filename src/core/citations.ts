// The playground runs this module in the browser as it is (/playground/citations.js): it imports only markdown-blocks.ts, and must import nothing else.
import { type Blocks, FENCE_LINE, NO_BLOCKS, readLine, UNSETTLED_LINE } from "./markdown-blocks.ts";

/** A citation marker in a reply: `[2]`, or a list such as `[1, 3]`. */
export interface CitationMarker {
  index: number;
  length: number;
  numbers: number[];
}

/** What the scan knows at a point of the text: inside a fenced block or not, at a line's start or not, what came before. */
interface ScanState {
  /** The Markdown blocks at the current line (code or not, the list items open). */
  blocks: Blocks;
  /** The current line is code to a renderer for sure: skipped to its end. */
  codeLine: boolean;
  /** The current line is code as read here but maybe not to a renderer: no marker is read, what could link is escaped. */
  muted: boolean;
  lineStart: boolean;
  /** The character before, and whether it closed a marker (`[1][2]` is two markers, `a[1][2]` none). */
  previous: string;
  afterMarker: boolean;
  /** Whether only indentation and container markers (`>`, `-`, `1.`) came before on this line: where a definition can start. */
  lead: boolean;
  /** The paragraph's open brackets, innermost last: whether each opened at a line's lead, and whether it holds a marker. */
  brackets: readonly Bracket[];
  /** Open brackets below those kept (past MAX_BRACKETS): any of them closing as a link is escaped. */
  forgotten: number;
  /** Inside a link's destination (`[text](here)`): -1 not, else its open parentheses; no marker is read there. */
  destination: number;
}

interface Bracket {
  lead: boolean;
  marker: boolean;
}

const START: ScanState = {
  blocks: NO_BLOCKS,
  codeLine: false,
  muted: false,
  lineStart: true,
  previous: "",
  afterMarker: false,
  lead: true,
  brackets: [],
  forgotten: 0,
  destination: -1,
};
// References are numbered from 1, never zero-padded: `[01,31]` (a range in Python's docs) is text, not a marker.
// Full-width brackets, digits and commas (`［1］`, `[１]`, NFKC's equivalents, as CJK text writes them) are read as the ASCII ones.
const MARKER = /[[［]([1-9１-９][0-9０-９]{0,2}(?:\s*[,，]\s*[1-9１-９][0-9０-９]{0,2})*)[\]］]/y;
const PARTIAL_MARKER = /[[［][\d０-９,，\s]{0,16}$/y;
/** A marker's numbers, full-width digits read as ASCII. */
const numbersOf = (list: string) => list.split(/[,，]/).map((n) => Number(n.trim().replace(/[０-９]/g, (d) => String(d.charCodeAt(0) - 0xff10))));
const partialMarkerAt = (text: string, i: number) => {
  PARTIAL_MARKER.lastIndex = i;
  return PARTIAL_MARKER.test(text);
};
/**
 * Where a paragraph (and any code span in it) ends: a blank line, or a line that starts another block (a quote,
 * a list item, a heading, a fence, a thematic break or setext underline, an HTML block: any line opening with `<`).
 */
const PARAGRAPH_END = /\n(?:[ \t]*\n|[ \t]*(?:>|[-+*][ \t]|\d{1,9}[.)][ \t]|#{1,6}(?:[ \t]|\n|$)|`{3}|~{3}|<|(?:[-*_=][ \t]*)+(?:\n|$)))/;
/** What a backslash escapes in Markdown: one ASCII punctuation character. */
export const ESCAPABLE = /^[!-/:-@[-`{-~]$/;
/**
 * An identifier, a call or an index before `[`: `argv[2]`, `f()[0]`, `a[1][2]`; a path, URL or query (`http://e.x/[3]`, `?q=[2]`);
 * or a backslash: `\[1]` is an escaped bracket, not a marker. Scripts written without spaces between words (Chinese, Japanese, Thai…) glue a citation to
 * the word before it (`超时默认为10秒[4]。`): a letter of theirs is no identifier.
 */
const GLUED =
  /(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}])[\p{L}\p{N}_)\]}\\/=]/u;
/**
 * Most text held back waiting for a code span or fence line to close: past it, the backtick run is read as
 * literal text, so one stray backtick cannot hold a whole reply back (nor make each delta rescan all of it).
 */
export const MAX_HELD_CHARS = 2_000;

const unsettledStart = (head: string) => UNSETTLED_LINE.test(head) || FENCE_LINE.test(head);

/** The scan's findings: the markers, and the `]` to escape so that no link reference definition or link around a marker is read. */
interface ScanResult {
  markers: CitationMarker[];
  escapes: number[];
  safe: number;
  state: ScanState;
}

/** How an escaped `<` or `!` is written (see renumber). */
const ENTITY_FOR: Record<string, string> = { "<": "&lt;", "!": "&#33;" };
/** A tag's name, or an autolink's scheme (followed by `:`) or an address's user (followed by `@`), after `<`. */
const TAG_NAME = /[A-Za-z][A-Za-z0-9+.-]*/y;
/** Past this, a name after `<` is read as a tag's without waiting for what follows (a scheme has at most 32). */
const MAX_TAG_NAME = 33;

/** Nesting past which the outermost open bracket is forgotten (a link's text nests a few levels at most). */
const MAX_BRACKETS = 32;

/**
 * Finds the citation markers of a text, leaving alone what only looks like
 * one: inside a code span or a fenced block, glued to an identifier
 * (`argv[2]`, `a[1][2]`), or a Markdown link's text (`[1](…)`). Unless
 * `final`, it stops where what follows could still change the reading (a
 * partial marker, a backtick run or fence not yet complete, a code span not
 * yet closed, a `]` whose next character is not known): `safe` is how far the
 * text is settled, `state` the scan's state there.
 *
 * It also finds the `]` a reader's renderer would close a link with around a
 * marker, or a link reference definition with (`[1]: https://…`, which would
 * link every `[1]` of the reply to that address): those are escaped, so what a
 * model writes (or a page it read tells it to write) cannot send a citation
 * somewhere other than its reference.
 */
function scan(text: string, from: ScanState, final: boolean): ScanResult {
  const markers: CitationMarker[] = [];
  const escapes: number[] = [];
  let { codeLine, muted, lineStart, previous, afterMarker, lead, forgotten, destination } = from;
  let blocks = from.blocks;
  const brackets = from.brackets.map((b) => ({ ...b }));
  const hold = (at: number): ScanResult => ({
    markers,
    escapes,
    safe: at,
    state: { blocks, codeLine, muted, lineStart, previous, afterMarker, lead, brackets: brackets.map((b) => ({ ...b })), forgotten, destination },
  });
  const tooLong = (at: number) => text.length - at > MAX_HELD_CHARS;
  let i = 0;
  while (i < text.length) {
    if (lineStart) {
      const lineEnd = text.indexOf("\n", i);
      // A line that could still become a block's start, or a fence line whose info string is not whole yet, waits for its end.
      if (!final && !tooLong(i) && lineEnd < 0 && unsettledStart(text.slice(i))) return hold(i);
      // A blank line ends the paragraph, and any link it could have held.
      if (lineEnd >= 0 && /^[ \t]*$/.test(text.slice(i, lineEnd))) {
        brackets.length = 0;
        forgotten = 0;
      }
      const next = { ...blocks, lists: [...blocks.lists] };
      // A block-start-like line longer than can be held is read the same whole or split: as unknown (markdown-blocks.ts).
      const long = (lineEnd < 0 ? text.length : lineEnd) - i > MAX_HELD_CHARS && unsettledStart(text.slice(i, i + MAX_HELD_CHARS + 1));
      const kind = readLine(text, i, next, long);
      // A fence's start or end closes any link open before it.
      if (next.fence !== blocks.fence) {
        brackets.length = 0;
        forgotten = 0;
      }
      blocks = next;
      codeLine = kind === "code";
      muted = kind === "unsure";
      lineStart = false;
      lead = true;
    }
    if (codeLine) {
      const lineEnd = text.indexOf("\n", i);
      if (lineEnd < 0) {
        i = text.length;
        break;
      }
      i = lineEnd + 1;
      lineStart = true;
      previous = "\n";
      afterMarker = false;
      continue;
    }
    const c = text[i]!;
    // A link's destination is an address, not prose: a `[2]` in it is no citation, and it is left as written.
    if (destination >= 0 && !/[ \t\n]/.test(c)) {
      if (c === "\\" && i + 1 === text.length && !final) return hold(i);
      const step = c === "\\" && ESCAPABLE.test(text[i + 1] ?? "") ? 2 : 1;
      // It ends at the `)` that balances its parentheses (or at a space: a title may follow).
      if (step === 1 && c === "(") destination++;
      else if (step === 1 && c === ")") destination--;
      previous = text[i + step - 1]!;
      afterMarker = false;
      lead = false;
      i += step;
      continue;
    }
    destination = -1;
    // A backslash escapes the ASCII punctuation after it, as in Markdown: `\`` opens no code span, `\[1]` is no marker.
    if (c === "\\") {
      if (i + 1 === text.length && !final) return hold(i);
      if (ESCAPABLE.test(text[i + 1] ?? "")) {
        previous = text[i + 1]!;
        afterMarker = false;
        lead = false;
        i += 2;
        continue;
      }
    }
    // In a line that may be code (muted), a backtick run opens nothing: a renderer reading it as code sees no span either.
    if (c === "`" && !muted) {
      let run = 1;
      while (text[i + run] === "`") run++;
      lead = false;
      if (i + run === text.length && !final && run < MAX_HELD_CHARS) return hold(i);
      // A code span closes with a run as long, within its paragraph and within MAX_HELD_CHARS of where it opens
      // (a longer one's backticks are literal text, read so however the reply is split); an unclosed run is literal.
      const limit = i + MAX_HELD_CHARS;
      let close = -1;
      let closeEnd = -1;
      for (let k = text.indexOf("`", i + run); k >= 0 && k < limit; k = text.indexOf("`", closeEnd)) {
        // Whole runs at a time: a run inside a longer one closes nothing.
        closeEnd = k;
        while (text[closeEnd] === "`") closeEnd++;
        if (closeEnd - k === run && closeEnd <= limit) {
          close = k;
          break;
        }
      }
      // A closing run at the very end may yet grow (more backticks to come), and then would not close.
      if (close >= 0 && closeEnd === text.length && !final) return hold(i);
      // Only the text up to the closing run is searched for a paragraph's end: a reply of many spans stays linear.
      if (close >= 0 && !PARAGRAPH_END.test(text.slice(i + run, closeEnd))) {
        i = closeEnd;
        previous = "`";
        afterMarker = false;
        continue;
      }
      // Not closed yet: it may be, while its window and paragraph are still open.
      if (!final && close < 0 && text.length < limit && !PARAGRAPH_END.test(text.slice(i + run))) return hold(i);
      i += run;
      previous = "`";
      afterMarker = false;
      continue;
    }
    // Raw HTML (`<a href=…>[1]</a>`, `<img src=…>`, an HTML block around either, a `style` loading a URL) would link
    // a citation anywhere or send a renderer to any address as it shows the reply: the `<` of every tag, comment or
    // declaration is escaped, so it shows as text; an autolink (`<https://…>`) stays. So is an image's `!`.
    if (c === "!") {
      if (!final && i + 1 === text.length) return hold(i);
      if (text[i + 1] === "[") escapes.push(i);
    } else if (c === "<") {
      TAG_NAME.lastIndex = i + 1;
      const name = TAG_NAME.exec(text)?.[0] ?? "";
      const after = i + 1 + name.length;
      if (!final && after === text.length && name.length <= MAX_TAG_NAME) return hold(i);
      if (/[/!?]/.test(text[i + 1] ?? "") || (name && (name.length > MAX_TAG_NAME || /[\s>/]/.test(text[after] ?? "")))) escapes.push(i);
    }
    if (c === "[" || c === "［") {
      MARKER.lastIndex = i;
      const m = MARKER.exec(text);
      const end = m ? i + m[0].length : -1;
      if (!final && (m ? end === text.length : partialMarkerAt(text, i))) return hold(i);
      const glued = GLUED.test(previous) && !afterMarker;
      if (m && !glued && !muted && text[end] !== "(") {
        // At a line's start and followed by `:`, it is a link reference definition, not a citation: escaped.
        if (lead && text[end] === ":" && c === "[" && text[end - 1] === "]") escapes.push(end - 1);
        else {
          markers.push({ index: i, length: m[0].length, numbers: numbersOf(m[1]!) });
          // Inside brackets a `](` may close as a link's text: that `]` is escaped.
          if (brackets.length > 0) brackets[brackets.length - 1]!.marker = true;
        }
        i = end;
        previous = "]";
        afterMarker = true;
        lead = false;
        continue;
      }
      if (c === "[") {
        // Past the nesting kept, the outermost is forgotten (counted: its `](` is escaped, as it may hold a marker).
        if (brackets.length === MAX_BRACKETS) {
          brackets.shift();
          forgotten++;
        }
        brackets.push({ lead, marker: false });
      }
    }
    if (c === "]" && brackets.length === 0 && forgotten > 0) {
      if (i + 1 === text.length && !final) return hold(i);
      forgotten--;
      if (text[i + 1] === "(" || text[i + 1] === ":") escapes.push(i);
    } else if (c === "]" && brackets.length > 0) {
      if (i + 1 === text.length && !final) return hold(i);
      // Closed, a bracket's marker is its outer bracket's too.
      const closed = brackets.pop()!;
      if (closed.marker && brackets.length > 0) brackets[brackets.length - 1]!.marker = true;
      if ((closed.marker && text[i + 1] === "(") || (closed.lead && text[i + 1] === ":")) escapes.push(i);
      else if (text[i + 1] === "(") {
        // A link: its destination follows.
        destination = 0;
        previous = "(";
        afterMarker = false;
        lead = false;
        i += 2;
        continue;
      }
    }
    if (c === "\n") lineStart = true;
    else if (lead && !/[ \t>*+\-0-9.)]/.test(c)) lead = false;
    previous = c;
    afterMarker = false;
    i++;
  }
  return {
    markers,
    escapes,
    safe: text.length,
    state: { blocks, codeLine, muted, lineStart, previous, afterMarker, lead, brackets, forgotten, destination },
  };
}

export function citationMarkers(text: string): CitationMarker[] {
  return scan(text, START, true).markers;
}

/**
 * Renumbers a streamed reply's citation markers in order of first use, so a
 * reply citing [3] then [1] reads [1] then [2], and `url_references` can list
 * the cited references in that order. Markers may arrive split across deltas
 * ("[" then "2]"): what could still become or stop being a marker is held back
 * until it settles. Code and brackets glued to an identifier are never touched.
 */
export function createCitationRenumberer(referenceCount: number) {
  const newNumber = new Map<number, number>();
  const order: number[] = [];
  let held = "";
  let state = START;
  /** A last space held back until what follows it is known (see renumber). */
  let pending = "";

  /**
   * The settled text with its markers renumbered and its escapes written. A number past the references (or a
   * marker of none but such numbers) is dropped: left, it would read as a citation of nothing, or of another
   * reference once the others are renumbered.
   */
  const renumber = (text: string, markers: readonly CitationMarker[], escapes: readonly number[], final: boolean) => {
    const edits = [
      ...markers.map((m) => ({ index: m.index, length: m.length, numbers: m.numbers })),
      ...escapes.map((index) => ({ index, length: 0, numbers: null })),
    ].sort((a, b) => a.index - b.index);
    let out = "";
    let at = 0;
    let before = pending;
    for (const { index, length, numbers } of edits) {
      if (numbers === null) {
        // A `<` or `!` is written as a character reference: a backslash right after a bare URL is read as part of
        // the URL (GFM), and would escape nothing. A `]` is escaped with a backslash.
        const entity = ENTITY_FOR[text[index]!];
        out += `${text.slice(at, index)}${entity ?? "\\"}`;
        at = entity ? index + 1 : index;
        continue;
      }
      const valid = numbers.filter((n) => n >= 1 && n <= referenceCount);
      const mapped = valid.map((n) => {
        if (!newNumber.has(n)) {
          order.push(n);
          newNumber.set(n, order.length);
        }
        return newNumber.get(n)!;
      });
      if (mapped.length > 0) {
        out += `${text.slice(at, index)}[${[...new Set(mapped)].join(", ")}]`;
        at = index + length;
        continue;
      }
      // A dropped marker takes the space before it along: "holds [99]." reads "holds.".
      if (index > at && text[index - 1] === " ") out += text.slice(at, index - 1);
      else if (index === 0 && before === " ") before = "";
      else out += text.slice(at, index);
      at = index + length;
    }
    let whole = before + out + text.slice(at);
    // A last space waits for what follows it: a marker dropped after it takes the space along, however the reply is split.
    pending = "";
    if (!final && whole.endsWith(" ")) {
      pending = " ";
      whole = whole.slice(0, -1);
    }
    return whole;
  };

  const take = (final: boolean) => {
    const result = scan(held, state, final);
    const settled = held.slice(0, result.safe);
    held = held.slice(result.safe);
    state = result.state;
    return renumber(settled, result.markers, result.escapes, final);
  };

  return {
    /** Renumbered text that is safe to emit now. */
    push(delta: string): string {
      held += delta;
      return take(false);
    },
    /** Whatever was held back, at the end of the reply. */
    flush(): string {
      return take(true);
    },
    /** Original reference numbers (1-based) in order of first citation. */
    get order(): readonly number[] {
      return order;
    },
  };
}
