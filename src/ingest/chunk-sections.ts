import type { Chunk, PageLink, SectionSpan } from "../core/retriever.ts";
import { type ExtractedPage, FENCE_LINE, type Section } from "./section.ts";

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** Text as lines, each with the break before it; a fenced code block is one line (cut into fenced parts of at most `max` words when longer). */
function lines(text: string, max: number): Array<{ text: string; before: string }> {
  const out: Array<{ text: string; before: string }> = [];
  const parts = text.split(/(\n+)/);
  for (let i = 0; i < parts.length; i += 2) {
    const before = i > 0 ? parts[i - 1]! : "";
    const fence = parts[i]!.trim();
    if (!FENCE_LINE.test(fence)) {
      out.push({ text: parts[i]!, before });
      continue;
    }
    let end = i + 2;
    while (end < parts.length && parts[end]!.trim() !== fence) end += 2;
    const code = parts
      .slice(i + 1, end)
      .join("")
      .replace(/^\n+/, "")
      .replace(/\n+$/, "")
      .split("\n");
    let piece: string[] = [];
    let count = 0;
    const push = () => {
      if (piece.length) out.push({ text: `${fence}\n${piece.join("\n")}\n${fence}`, before: piece[0] === code[0] ? before : "\n" });
      piece = [];
      count = 0;
    };
    for (const line of code) {
      const n = words(line);
      if (count + n > max && piece.length) push();
      piece.push(line);
      count += n;
    }
    push();
    i = end;
  }
  return out;
}

/**
 * Splits text into pieces of at most `max` words, at paragraph, then line,
 * then word boundaries, keeping a code block whole where it fits. Each piece
 * keeps the line and paragraph breaks it had, so a heading or a label line
 * stays apart from the sentence after it.
 */
export function splitText(text: string, max: number): string[] {
  if (words(text) <= max) return [text];
  // Units are lines (or runs of `max` words of a long line), each with the break that precedes it.
  const units: Array<{ text: string; words: number; before: string }> = [];
  for (const { text: line, before } of lines(text, max)) {
    const w = line.split(/\s+/).filter(Boolean);
    if (w.length <= max || line.startsWith("```")) units.push({ text: line, words: w.length, before });
    else
      for (let k = 0; k < w.length; k += max)
        units.push({ text: w.slice(k, k + max).join(" "), words: Math.min(max, w.length - k), before: k === 0 ? before : " " });
  }
  // Word counts are carried along, not recounted: a long section has thousands of lines.
  const pieces: string[] = [];
  let current = "";
  let count = 0;
  for (const unit of units) {
    if (current && count + unit.words > max) {
      pieces.push(current);
      current = "";
      count = 0;
    }
    current += current ? unit.before + unit.text : unit.text;
    count += unit.words;
  }
  if (current) pieces.push(current);
  return pieces;
}

/** A section that links to more pages than this is a list of links (an index, a table of contents), not a pointer to a few. */
export const MAX_LINKED_PAGES = 50;

/**
 * The pages of the source (URLs under `scope`) that a section links to, as
 * page URLs without fragment or query (the page itself left out), each with
 * the words of every link to it (text and title); none for a list of links.
 */
export function linkedPages(links: Section["links"], url: string, scope: string): PageLink[] {
  const pages = new Map<string, Set<string>>();
  for (const { href, text, title } of links ?? []) {
    let target: URL;
    try {
      target = new URL(href, url);
    } catch {
      continue;
    }
    target.hash = "";
    target.search = "";
    const page = target.toString();
    if (page === url || !page.startsWith(scope)) continue;
    const words = pages.get(page) ?? new Set<string>();
    for (const w of [text, title]) if (w) words.add(w.replace(/\s+/g, " "));
    pages.set(page, words);
  }
  if (pages.size > MAX_LINKED_PAGES) return [];
  return [...pages].map(([page, words]) => ({ url: page, text: [...words].join(" ") }));
}

/** A run of sections about to become passages: each section's text (the merged ones' led by their heading), anchor and path. */
type Part = { sections: Array<{ anchor: string; section: string; text: string }>; links: NonNullable<Section["links"]> };

/** Marks where a section starts inside a merged text, so the passages cut from it know their sections. */
const SECTION_START = "\uE000";

/**
 * Chunks a page at its headings into passages of at most `maxWords` words.
 * A section shorter than `minWords` joins the section after it, so a page of
 * many tiny sections does not become many tiny passages; the passage keeps
 * where each section's text starts and its anchor (`Chunk.spans`), so a
 * reference can point at the section that holds a quoted sentence. Each
 * passage keeps the pages of the source (under `scope`, default: the page's
 * folder) that its sections link to: the section is the passage's context,
 * and a long one becomes several passages.
 */
export function chunkPage(
  page: ExtractedPage,
  {
    sourceId,
    url,
    scope = new URL(".", url).toString(),
    maxWords = 400,
    minWords = 150,
  }: { sourceId: string; url: string; scope?: string; maxWords?: number; minWords?: number },
): Chunk[] {
  const chunks: Chunk[] = [];
  let pending: Part | null = null;
  const emit = (part: Part) => {
    const links = linkedPages(part.links, url, scope);
    // Every section after the first is marked at its first character, then the text is cut into passages.
    const marked = part.sections.map((s, i) => (i === 0 ? s.text : s.text.replace(/^\s*/, (space) => space + SECTION_START))).join("\n\n");
    let at = 0;
    for (const piece of splitText(marked, maxWords)) {
      const spans: SectionSpan[] = [{ start: 0, anchor: part.sections[at]!.anchor, section: part.sections[at]!.section }];
      let text = "";
      for (const [i, run] of piece.split(SECTION_START).entries()) {
        if (i > 0) {
          at++;
          const span = { start: text.length, anchor: part.sections[at]!.anchor, section: part.sections[at]!.section };
          if (text.trim()) spans.push(span);
          else spans[0] = { ...span, start: 0 };
        }
        text += run;
      }
      chunks.push({ sourceId, url, anchor: spans[0]!.anchor, title: page.title, section: spans[0]!.section, text, links, ...(spans.length > 1 && { spans }) });
    }
  };
  for (const section of page.sections) {
    const heading = section.headings.join(" › ");
    const links = section.links ?? [];
    const current: Part = pending
      ? {
          sections: [
            ...pending.sections,
            { anchor: section.anchor, section: heading, text: [section.headings.at(-1) ?? "", section.text].filter(Boolean).join("\n\n") },
          ],
          links: [...pending.links, ...links],
        }
      : { sections: [{ anchor: section.anchor, section: heading, text: section.text }], links };
    if (words(current.sections.map((s) => s.text).join(" ")) < minWords) {
      pending = current;
      continue;
    }
    pending = null;
    emit(current);
  }
  if (pending) emit(pending);
  return chunks;
}
