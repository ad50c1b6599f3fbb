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

/** Collapses runs of spaces, keeps paragraph breaks. */
export function tidyText(text: string): string {
  return text
    .replace(/\r/g, "")
    .replace(/[ \t\f\v\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
