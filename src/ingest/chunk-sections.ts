import type { Chunk } from "../core/retriever.ts";
import type { ExtractedPage } from "./section.ts";

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** Splits text into pieces of at most `max` words, at paragraph, then line, then word boundaries. */
export function splitText(text: string, max: number): string[] {
  if (words(text) <= max) return [text];
  const units = text.split(/\n+/).flatMap((para) => {
    const w = para.split(/\s+/).filter(Boolean);
    if (w.length <= max) return [{ text: para, words: w.length }];
    const out: Array<{ text: string; words: number }> = [];
    for (let i = 0; i < w.length; i += max) out.push({ text: w.slice(i, i + max).join(" "), words: Math.min(max, w.length - i) });
    return out;
  });
  // Word counts are carried along, not recounted: a long section has thousands of lines.
  const pieces: string[] = [];
  let current: string[] = [];
  let count = 0;
  for (const unit of units) {
    if (current.length > 0 && count + unit.words > max) {
      pieces.push(current.join("\n"));
      current = [];
      count = 0;
    }
    current.push(unit.text);
    count += unit.words;
  }
  if (current.length > 0) pieces.push(current.join("\n"));
  return pieces;
}

/**
 * Chunks a page at its headings into passages of at most `maxWords` words.
 * A section shorter than `minWords` joins the section after it (keeping the
 * first one's heading and anchor), so a page of many tiny sections does not
 * become many tiny passages.
 */
export function chunkPage(
  page: ExtractedPage,
  { sourceId, url, maxWords = 400, minWords = 150 }: { sourceId: string; url: string; maxWords?: number; minWords?: number },
): Chunk[] {
  const chunks: Chunk[] = [];
  let pending: { anchor: string; section: string; text: string } | null = null;
  const emit = (part: { anchor: string; section: string; text: string }) => {
    for (const text of splitText(part.text, maxWords)) chunks.push({ sourceId, url, anchor: part.anchor, title: page.title, section: part.section, text });
  };
  for (const section of page.sections) {
    const heading = section.headings.join(" › ");
    const current: { anchor: string; section: string; text: string } = pending
      ? { anchor: pending.anchor, section: pending.section, text: `${pending.text}\n\n${section.headings.at(-1) ?? ""}\n\n${section.text}` }
      : { anchor: section.anchor, section: heading, text: section.text };
    if (words(current.text) < minWords) {
      pending = current;
      continue;
    }
    pending = null;
    emit(current);
  }
  if (pending) emit(pending);
  return chunks;
}
