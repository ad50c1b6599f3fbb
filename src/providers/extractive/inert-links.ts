import { ESCAPABLE } from "../../core/citations.ts";

/**
 * Quoted documentation as text, not as Markdown links or HTML. Ingestion keeps
 * no link of a page, so a link written in its text (`[docs](https://…)`,
 * `[[1]](…)`), a link reference definition (`[1]: https://…`, which would turn
 * every `[1]` of the answer into a link to its URL in a reader's renderer) or
 * an HTML tag (`<a href=…>[1]</a>`) is the page's text speaking: a hostile page
 * could send the citations of trusted pages to its own site.
 *
 * Recognising each link shape is a losing game (nested lists, block quotes,
 * nested brackets, escaped backslashes), so nothing is recognised: every `[`
 * is escaped (`\[`) and every `<` that could open a tag written `&lt;`, which a
 * renderer shows as `[` and `<`. The page's text is text, so its backslashes
 * before punctuation and an `&` that would start a character reference are
 * escaped too (`a\.b` and `&lt;` read as written). Left whole: `<…>` autolinks
 * (one token, linked as their own address) and code spans, taken only where no
 * reading could end them sooner (closed by a run of as many backticks on the
 * same line); any other backtick run is escaped, so it cannot pair with one in
 * a later item or sentence of the answer. A bare URL is escaped like any text:
 * renderers disagree on where one ends or whether to link it (emphasis, `]`,
 * `_` in its domain), so a `[` in it reads `\[` there (its address broken,
 * never another link).
 */
export function inertLinks(text: string): string {
  const closers = closingRuns(text);
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    // The page's text is text: its backslash before punctuation, or its `&lt;`, reads as written.
    if (c === "\\" && ESCAPABLE.test(text[i + 1] ?? "")) {
      out += "\\\\";
      i++;
      continue;
    }
    if (c === "&" && matchAt(ENTITY, text, i) !== null) {
      out += "&amp;";
      i++;
      continue;
    }
    const verbatim = c === "`" ? codeSpanAt(text, i, closers) : c === "<" ? matchAt(AUTOLINK, text, i) : null;
    if (verbatim !== null) {
      out += verbatim;
      i += verbatim.length;
    } else if (c === "`") {
      const run = matchAt(BACKTICKS, text, i)!;
      out += "\\`".repeat(run.length);
      i += run.length;
    } else {
      // `<` as an entity: a backslash right after a bare URL is read as part of the URL, and would not escape it.
      // Full-width brackets are written as ASCII ones (as NFKC reads them): the citation reader takes `［2］` for a marker.
      out += c === "[" || c === "［" ? "\\[" : c === "］" ? "]" : c === "<" && TAG_START.test(text[i + 1] ?? "") ? "&lt;" : c;
      i++;
    }
  }
  return out;
}

/** What may follow `<` in an HTML tag, comment or declaration. */
const TAG_START = /^[A-Za-z/!?]$/;
const BACKTICKS = /`+/y;
/** What Markdown reads as a character reference. */
const ENTITY = /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;
/** CommonMark's autolinks, `<https://…>` and `<name@host>` (no space or control character inside): shown as their address. */
const AUTOLINK =
  /<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s\p{Cc}<>]*|[\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/uy;

/** What a sticky pattern matches at `at`, or null. */
function matchAt(pattern: RegExp, text: string, at: number): string | null {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0] ?? null;
}

/**
 * For each backtick run's start, where the run closing it begins: the next run
 * as long on the same line (`\r` ends one too). Found in one pass from the end,
 * so a line of unclosed runs of many lengths costs no rescans.
 */
function closingRuns(text: string): Map<number, number> {
  const runs: { start: number; length: number; line: number }[] = [];
  let line = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === "\n" || c === "\r") line++;
    else if (c === "`") {
      const length = matchAt(BACKTICKS, text, k)!.length;
      runs.push({ start: k, length, line });
      k += length - 1;
    }
  }
  const closers = new Map<number, number>();
  const nextOf = new Map<string, number>();
  for (let j = runs.length - 1; j >= 0; j--) {
    const { start, length, line } = runs[j]!;
    const key = `${line}:${length}`;
    const next = nextOf.get(key);
    if (next !== undefined) closers.set(start, next);
    nextOf.set(key, start);
  }
  return closers;
}

/** The code span the backtick run at `start` opens, or null when no run closes it. */
function codeSpanAt(text: string, start: number, closers: Map<number, number>): string | null {
  const closing = closers.get(start);
  if (closing === undefined) return null;
  const run = matchAt(BACKTICKS, text, start)!.length;
  return text.slice(start, closing + run);
}
