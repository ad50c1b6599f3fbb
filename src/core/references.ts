import type { GroundingDocument } from "./language-model.ts";
import { referenceUrl, type RankedPage } from "./rank-pages.ts";

export interface Reference {
  url: string;
  title: string;
  sourceId: string;
}

export interface Grounding {
  references: Reference[];
  documents: GroundingDocument[];
}

/**
 * The references (unique pages, most relevant first, at most `maxReferences`)
 * and the context: each page's best passages, numbered as its reference.
 */
export function groundPages(pages: readonly RankedPage[], { maxReferences, maxPassagesPerPage = 2 }: { maxReferences: number; maxPassagesPerPage?: number }): Grounding {
  const chosen = pages.slice(0, maxReferences);
  const references = chosen.map((page) => ({ url: referenceUrl(page), title: page.title, sourceId: page.sourceId }));
  const documents = chosen.flatMap((page, i) =>
    page.chunks.slice(0, maxPassagesPerPage).map((chunk) => ({ referenceNumber: i + 1, title: chunk.title, section: chunk.section, url: referenceUrl({ url: chunk.url, anchor: chunk.anchor }), text: chunk.text })),
  );
  return { references, documents };
}

/** The block appended to the reply when `include_references` is true. */
export function referencesBlock(references: readonly Pick<Reference, "title" | "url">[]): string {
  if (references.length === 0) return "";
  const lines = references.map((ref, i) => `[${i + 1}] ${ref.title}: ${ref.url}`);
  return `\n\nReferences:\n${lines.join("\n")}`;
}
