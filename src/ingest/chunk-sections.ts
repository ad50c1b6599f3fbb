import type { Chunk } from "../core/retriever.ts";
import type { ExtractedPage } from "./section.ts";

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** Splits text into pieces of at most `max` words, at paragraph, then line, then word boundaries. */
export function splitText(text: string, max: number): string[] {
  if (words(text) <= max) return [text];
  const pieces: string[] = [];
  let current = "";
  const units = text.split(/\n+/).flatMap((para) => {
    if (words(para) <= max) return [para];
    const w = para.split(/\s+/);
    const out: string[] = [];
    for (let i = 0; i < w.length; i += max) out.push(w.slice(i, i + max).join(" "));
    return out;
  });
  for (const unit of units) {
    if (current && words(current) + words(unit) > max) {
      pieces.push(current);
      current = "";
    }
    current = current ? `${current}\n${unit}` : unit;
  }
  if (current) pieces.push(current);
  return pieces;
}

/** Chunks a page at its headings into passages of at most `maxWords` words. */
export function chunkPage(page: ExtractedPage, { sourceId, url, maxWords = 300 }: { sourceId: string; url: string; maxWords?: number }): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of page.sections) {
    for (const text of splitText(section.text, maxWords)) {
      chunks.push({ sourceId, url, anchor: section.anchor, title: page.title, section: section.headings.join(" › "), text });
    }
  }
  return chunks;
}
