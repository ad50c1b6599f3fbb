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
 * is escaped (`\[`) and every `<` that could open a tag written `&lt;` (which
 * a renderer shows as `[` and `<`), except inside code spans and where the
 * page already escaped it. Code spans are found as CommonMark finds them: a backtick run
 * closed by a run of the same length, not across a blank line; a run left
 * unclosed, or escaped, is literal text.
 */
export function inertLinks(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\" && ASCII_PUNCTUATION.test(text[i + 1] ?? "")) {
      out += text.slice(i, i + 2);
      i += 2;
    } else if (c === "`") {
      const end = codeSpanEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else {
      // `<` as an entity: a backslash right after a bare URL is read as part of the URL, and would not escape it.
      out += c === "[" ? "\\[" : c === "<" && TAG_START.test(text[i + 1] ?? "") ? "&lt;" : c;
      i++;
    }
  }
  return out;
}

const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;
/** What may follow `<` in an HTML tag, comment, declaration or autolink. */
const TAG_START = /^[A-Za-z/!?]$/;

/** Where the backtick run at `start` and the code span it opens end (only the run itself, when it opens none). */
function codeSpanEnd(text: string, start: number): number {
  let run = 1;
  while (text[start + run] === "`") run++;
  const blankLine = text.slice(start + run).search(/\n[ \t]*\n/);
  const limit = blankLine < 0 ? text.length : start + run + blankLine;
  for (let k = text.indexOf("`", start + run); k >= 0 && k < limit; ) {
    let closing = 1;
    while (text[k + closing] === "`") closing++;
    if (closing === run) return k + run;
    k = text.indexOf("`", k + closing);
  }
  return start + run;
}
