import type { GroundingDocument } from "./language-model.ts";
import { passageSections } from "./passage-sections.ts";
import { percentEncoded, type RankedPage, referenceUrl } from "./rank-pages.ts";

export interface Reference {
  url: string;
  title: string;
  sourceId: string;
}

export interface Grounding {
  /**
   * What a reply can cite, numbered as the documents are: one per section of
   * a page the context quotes (`page.html#anchor`), so a citation points at
   * the section that holds the text it cites.
   */
  references: Reference[];
  /** One reference per page, most relevant first, each at its best passage's section: what a reply that cites nothing refers to. */
  pages: Reference[];
  documents: GroundingDocument[];
}

/** The page a reference belongs to: its URL without the fragment. */
export const pageOf = (reference: Pick<Reference, "url">) => reference.url.replace(/#.*$/, "");

/**
 * The references and the context of at most `maxReferences` pages, most
 * relevant first: each page's best passages, cut at their sections (a passage
 * of merged short sections is several documents), each section numbered as
 * its own reference the first time it appears.
 */
export function groundPages(
  pages: readonly RankedPage[],
  { maxReferences, maxPassagesPerPage = 2 }: { maxReferences: number; maxPassagesPerPage?: number },
): Grounding {
  const chosen = pages.slice(0, maxReferences);
  const references: Reference[] = [];
  const numbers = new Map<string, number>();
  const documents: GroundingDocument[] = [];
  let passage = 0;
  for (const page of chosen) {
    for (const chunk of page.chunks.slice(0, maxPassagesPerPage)) {
      for (const part of passageSections(chunk)) {
        const url = referenceUrl({ url: chunk.url, anchor: part.anchor });
        let number = numbers.get(url);
        if (number === undefined) {
          number = references.push({ url, title: page.title, sourceId: page.sourceId });
          numbers.set(url, number);
        }
        documents.push({ referenceNumber: number, passage, title: chunk.title, section: part.section, url, text: part.text });
      }
      passage++;
    }
  }
  const firstOfPage = new Map<string, Reference>();
  for (const reference of references) if (!firstOfPage.has(pageOf(reference))) firstOfPage.set(pageOf(reference), reference);
  return { references, pages: [...firstOfPage.values()], documents };
}

/**
 * A page's title as Markdown text: brackets and backticks escaped, and `<` as
 * `&lt;`, so a title can write no link (`[x](https://…)`), HTML tag
 * (`<a href=…>`) or code span (which would swallow the marker after it) into a reply.
 */
export const markdownText = (title: string) =>
  title
    // Full-width brackets as ASCII ones (as NFKC reads them): the citation reader takes `［1］` for a marker.
    .replace(/[［］]/g, (c) => (c === "［" ? "[" : "]"))
    .replace(/[\\[\]`]/g, "\\$&")
    .replace(/</g, "&lt;");

/** A URL as Markdown text, with what Markdown reads as syntax around or after a bare URL percent-encoded (a crawled page's path is its site's to choose). */
const markdownUrl = (url: string) => url.replace(/[[\]()<>\\`\s]/gu, percentEncoded);

/** The block appended to the reply when `include_references` is true. */
export function referencesBlock(references: readonly Pick<Reference, "title" | "url">[]): string {
  if (references.length === 0) return "";
  const lines = references.map((ref, i) => `[${i + 1}] ${markdownText(ref.title)}: ${markdownUrl(ref.url)}`);
  return `\n\nReferences:\n${lines.join("\n")}`;
}
