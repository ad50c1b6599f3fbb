// The playground runs this module in the browser as it is (/playground/citations.js): it imports nothing, and must not.

/** A citation marker in a reply: `[2]`, or a list such as `[1, 3]`. */
export interface CitationMarker {
  index: number;
  length: number;
  numbers: number[];
}

/** What the scan knows at a point of the text: inside a fenced block or not, at a line's start or not, what came before. */
interface ScanState {
  fence: string | null;
  lineStart: boolean;
  /** The character before, and whether it closed a marker (`[1][2]` is two markers, `a[1][2]` none). */
  previous: string;
  afterMarker: boolean;
}

const START: ScanState = { fence: null, lineStart: true, previous: "", afterMarker: false };
// References are numbered from 1, never zero-padded: `[01,31]` (a range in Python's docs) is text, not a marker.
const MARKER = /\[([1-9]\d{0,2}(?:\s*,\s*[1-9]\d{0,2})*)\]/y;
const PARTIAL_MARKER = /\[[\d,\s]{0,16}$/y;
const partialMarkerAt = (text: string, i: number) => {
  PARTIAL_MARKER.lastIndex = i;
  return PARTIAL_MARKER.test(text);
};
const FENCE = /[ \t]*(`{3,}|~{3,})/y;
const PARAGRAPH_END = /\n[ \t]*\n/;
/** What a backslash escapes in Markdown: one ASCII punctuation character. */
export const ESCAPABLE = /^[!-/:-@[-`{-~]$/;
/** An identifier, a call or an index before `[`: `argv[2]`, `f()[0]`, `a[1][2]`; or a backslash: `\[1]` is an escaped bracket, not a marker. */
const GLUED = /[\p{L}\p{N}_)\]}\\]/u;

/**
 * Finds the citation markers of a text, leaving alone what only looks like
 * one: inside a code span or a fenced block, glued to an identifier
 * (`argv[2]`, `a[1][2]`), or a Markdown link's text (`[1](…)`). Unless
 * `final`, it stops where what follows could still change the reading (a
 * partial marker, a backtick run or fence not yet complete, a code span not
 * yet closed): `safe` is how far the text is settled, `state` the scan's state there.
 */
function scan(text: string, from: ScanState, final: boolean): { markers: CitationMarker[]; safe: number; state: ScanState } {
  const markers: CitationMarker[] = [];
  let { fence, lineStart, previous, afterMarker } = from;
  const hold = (at: number) => ({ markers, safe: at, state: { fence, lineStart, previous, afterMarker } });
  let i = 0;
  while (i < text.length) {
    if (lineStart) {
      const lineEnd = text.indexOf("\n", i);
      FENCE.lastIndex = i;
      const f = FENCE.exec(text);
      // A line that could still become a fence waits for its end.
      if (!final && (lineEnd < 0 ? /^[ \t`~]*$/.test(text.slice(i)) : false)) return hold(i);
      if (f && (!fence || (f[1]![0] === fence[0] && f[1]!.length >= fence.length))) {
        if (lineEnd < 0 && !final) return hold(i);
        fence = fence ? null : f[1]!;
        i = lineEnd < 0 ? text.length : lineEnd + 1;
        previous = "\n";
        afterMarker = false;
        continue;
      }
      lineStart = false;
    }
    if (fence) {
      const lineEnd = text.indexOf("\n", i);
      if (lineEnd < 0) {
        i = text.length;
        break;
      }
      i = lineEnd + 1;
      lineStart = true;
      continue;
    }
    const c = text[i]!;
    // A backslash escapes the ASCII punctuation after it, as in Markdown: `\`` opens no code span, `\[1]` is no marker.
    if (c === "\\") {
      if (i + 1 === text.length && !final) return hold(i);
      if (ESCAPABLE.test(text[i + 1] ?? "")) {
        previous = text[i + 1]!;
        afterMarker = false;
        i += 2;
        continue;
      }
    }
    if (c === "`") {
      let run = 1;
      while (text[i + run] === "`") run++;
      if (i + run === text.length && !final) return hold(i);
      // A code span closes with a run as long, within its paragraph; an unclosed run is literal text.
      const ticks = "`".repeat(run);
      let close = -1;
      for (let k = text.indexOf(ticks, i + run); k >= 0; k = text.indexOf(ticks, k + 1)) {
        if (text[k - 1] !== "`" && text[k + run] !== "`") {
          close = k;
          break;
        }
      }
      // A closing run at the very end may yet grow (more backticks to come), and then would not close.
      if (close >= 0 && close + run === text.length && !final) return hold(i);
      // Only the text up to the closing run is searched for a paragraph's end: a reply of many spans stays linear.
      if (close >= 0 && !PARAGRAPH_END.test(text.slice(i + run, close))) {
        i = close + run;
        previous = "`";
        afterMarker = false;
        continue;
      }
      if (!final && close < 0 && !PARAGRAPH_END.test(text.slice(i + run))) return hold(i);
      i += run;
      previous = "`";
      afterMarker = false;
      continue;
    }
    if (c === "[") {
      MARKER.lastIndex = i;
      const m = MARKER.exec(text);
      const end = m ? i + m[0].length : -1;
      if (!final && (m ? end === text.length : partialMarkerAt(text, i))) return hold(i);
      const glued = GLUED.test(previous) && !afterMarker;
      if (m && !glued && text[end] !== "(") {
        markers.push({ index: i, length: m[0].length, numbers: m[1]!.split(",").map((n) => Number(n.trim())) });
        i = end;
        previous = "]";
        afterMarker = true;
        continue;
      }
    }
    if (c === "\n") lineStart = true;
    previous = c;
    afterMarker = false;
    i++;
  }
  return { markers, safe: text.length, state: { fence, lineStart, previous, afterMarker } };
}

/** The citation markers of a whole reply (see `scan` for what is not one). */
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

  const renumber = (text: string, markers: readonly CitationMarker[]) => {
    let out = "";
    let at = 0;
    for (const { index, length, numbers } of markers) {
      if (numbers.some((n) => n < 1 || n > referenceCount)) continue;
      const mapped = numbers.map((n) => {
        if (!newNumber.has(n)) {
          order.push(n);
          newNumber.set(n, order.length);
        }
        return newNumber.get(n)!;
      });
      out += `${text.slice(at, index)}[${mapped.join(", ")}]`;
      at = index + length;
    }
    return out + text.slice(at);
  };

  const take = (final: boolean) => {
    const result = scan(held, state, final);
    const settled = held.slice(0, result.safe);
    held = held.slice(result.safe);
    state = result.state;
    return renumber(settled, result.markers);
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
