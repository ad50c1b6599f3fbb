/**
 * Quoted documentation as text, not as Markdown links. Ingestion keeps no
 * link of a page, so a link written in its text (`[docs](https://…)`,
 * `![x](…)`) or a link reference definition (`[1]: https://…`, which would
 * turn every `[1]` of the answer into a link to its URL in a reader's Markdown
 * renderer) is the page's text speaking: a hostile page could send the
 * citations of trusted pages to its own site. Their opening bracket is
 * escaped (`\[`, which Markdown shows as `[`), outside code spans.
 */
export function inertLinks(text: string): string {
  return text
    .split(/(`+[^`\n]*`+)/)
    .map((part, i) =>
      i % 2
        ? part
        : part
            // A definition: at a line's start (after a list marker, as a quoted list item), `[label]:`.
            .replace(/^([ \t]*(?:(?:[-*+•]|\d+[.)])[ \t]+)?)(?<!\\)\[(?=[^\]\n]*\]:)/gm, "$1\\[")
            // A link or image: `[text](`, `![alt](`.
            .replace(/(?<!\\)\[(?=[^[\]\n]*\]\()/g, "\\["),
    )
    .join("");
}
