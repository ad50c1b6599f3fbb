/** A titled stretch of a page, as extractors produce it before chunking. */
export interface Section {
  /** Heading path, outermost first (the page title is not repeated). */
  headings: string[];
  /** Id to link to the section (`page.html#anchor`), or "". */
  anchor: string;
  text: string;
  /** Links in the section's text: the target as written (`href`, Markdown destination), the link's text, and its title if any. */
  links?: Array<{ href: string; text: string; title?: string }>;
}

export interface ExtractedPage {
  title: string;
  sections: Section[];
  /** True for pages that are mostly links (tables of contents, indexes): not content. */
  navigational?: boolean;
}

/**
 * A fenced code block in extracted text: its lines are kept as written
 * (indentation is meaning in code). The fence is a line of three or more
 * backticks, closed by the same line; longer than any backtick line inside
 * the code, so code that shows a fence stays one block.
 */
export const FENCE_LINE = /^`{3,}$/;
const FENCED = /(^|\n)(`{3,})\n[\s\S]*?\n\2(?=\n|$)/g;

function tidyProse(text: string): string {
  return (
    text
      .replace(/[ \t\f\v\u00a0]+/g, " ")
      .replace(/ *\n */g, "\n")
      // A list item's marker stays on its item's first line ("- " then a paragraph).
      .replace(/^(-|\d+\.)\n+(?=\S)/gm, "$1 ")
      .replace(/\n{3,}/g, "\n\n")
  );
}

/** Collapses runs of spaces, keeps paragraph breaks; fenced code keeps its lines and indentation. */
export function tidyText(text: string): string {
  text = text.replace(/\r/g, "");
  // Parts joined once at the end: asking a string built by += whether it ends in a line break
  // flattens it each time (32,000 code blocks took 6 s).
  const parts: string[] = [];
  let endsLine = true;
  let last = 0;
  for (const match of text.matchAll(FENCED)) {
    const start = match.index + match[1]!.length;
    const prose = tidyProse(text.slice(last, start));
    if (prose) {
      parts.push(prose);
      endsLine = prose.endsWith("\n");
    }
    const code = match[0]
      .slice(match[1]!.length)
      .replace(/[ \t]+$/gm, "")
      .replace(/\n{3,}/g, "\n\n");
    parts.push(`${endsLine ? "" : "\n"}${code}\n`);
    endsLine = true;
    last = match.index + match[0].length;
  }
  parts.push(tidyProse(text.slice(last)));
  return parts
    .join("")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Code as a fenced block of extracted text, without the blank lines around it. */
export function fenced(code: string): string {
  const body = code.replace(/\r/g, "").replace(/^\s*\n|\s+$/g, "");
  if (!body) return "";
  const longest = Math.max(2, ...[...body.matchAll(/^[ \t]*(`{3,})/gm)].map((m) => m[1]!.length));
  const fence = "`".repeat(longest + 1);
  return `\n${fence}\n${body}\n${fence}\n`;
}
