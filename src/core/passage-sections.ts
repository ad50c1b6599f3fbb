import type { Chunk } from "./retriever.ts";

export interface PassageSection {
  anchor: string;
  section: string;
  text: string;
}

/** A passage's text cut at its sections (see `Chunk.spans`): one part per section, each with its anchor. */
export function passageSections(chunk: Pick<Chunk, "anchor" | "section" | "text" | "spans">): PassageSection[] {
  const spans = chunk.spans?.length ? chunk.spans : [{ start: 0, anchor: chunk.anchor, section: chunk.section }];
  return spans
    .map((span, i) => ({ anchor: span.anchor, section: span.section, text: chunk.text.slice(span.start, spans[i + 1]?.start ?? chunk.text.length).trim() }))
    .filter((part) => part.text);
}
