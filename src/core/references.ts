import type { GroundingDocument } from "./language-model.ts";
import type { RetrievedChunk } from "./retriever.ts";

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
 * Collapses ranked chunks to unique pages (most relevant first, at most
 * `maxReferences`) and keeps the best passages of those pages as the context.
 */
export function groundChunks(
  chunks: readonly RetrievedChunk[],
  { maxReferences, maxPassagesPerPage = 2 }: { maxReferences: number; maxPassagesPerPage?: number },
): Grounding {
  const pageNumber = new Map<string, number>();
  const perPage = new Map<string, number>();
  const references: Reference[] = [];
  const documents: GroundingDocument[] = [];
  for (const chunk of chunks) {
    let number = pageNumber.get(chunk.url);
    if (number === undefined) {
      if (references.length >= maxReferences) continue;
      references.push({ url: chunk.url, title: chunk.title || chunk.url, sourceId: chunk.sourceId });
      number = references.length;
      pageNumber.set(chunk.url, number);
    }
    const used = perPage.get(chunk.url) ?? 0;
    if (used >= maxPassagesPerPage) continue;
    perPage.set(chunk.url, used + 1);
    documents.push({ referenceNumber: number, title: chunk.title, section: chunk.section, url: chunk.url, text: chunk.text });
  }
  return { references, documents };
}

/** The block appended to the reply when `include_references` is true. */
export function referencesBlock(references: readonly Reference[]): string {
  if (references.length === 0) return "";
  const lines = references.map((ref, i) => `[${i + 1}] ${ref.title}: ${ref.url}`);
  return `\n\nReferences:\n${lines.join("\n")}`;
}
