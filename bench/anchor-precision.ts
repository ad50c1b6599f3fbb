import { citationMarkers } from "../src/core/citations.ts";
import type { EvalSource } from "./debian-docs.ts";
import { referencedSection } from "./source-sections.ts";

/**
 * Anchor precision: of the sentences an answer cites, the share found in the
 * section their reference points to (`page.html#anchor`), each section read
 * from the source files by source-sections.ts, independently of how docent
 * extracted and chunked the page. A sentence citing two references counts
 * once per reference: each must hold it.
 */
export interface CitedSentence {
  text: string;
  /** The reference numbers (1-based) its marker cites. */
  numbers: number[];
}

const LIST_MARKER = /^(?:[-*•]|\d+\.)\s+/;

/** An answer's cited sentences: the text before each marker back to the previous marker or paragraph; code and "See also" left out. */
export function citedSentences(answer: string): CitedSentence[] {
  const prose = answer.replace(/\n\nSee also:[\s\S]*$/, "");
  const out: CitedSentence[] = [];
  let from = 0;
  for (const { index, length, numbers } of citationMarkers(prose)) {
    // Back to the previous marker or the paragraph's start (a code block before it is its own paragraph).
    const before = prose.slice(from, index);
    const text = before.slice(before.lastIndexOf("\n\n") + 1).trim();
    from = index + length;
    if (!text || /^(`{3,}|~{3,})/.test(text)) continue;
    // A list quoted whole is cited as a whole: each item is a statement its section must hold (markers are the answer's, not the page's).
    const items = text.split("\n").map((line) => line.replace(LIST_MARKER, "").trim());
    if (text.split("\n").every((line) => LIST_MARKER.test(line))) for (const item of items) out.push({ text: item, numbers });
    else out.push({ text, numbers });
  }
  return out;
}

/**
 * Text as compared: no whitespace, no Markdown emphasis or code marks, no Sphinx
 * pilcrows, and no bracketed numbers on either side ("g[1] objects": a footnote's
 * marker in the page, which docent leaves out of what it quotes).
 */
const comparable = (text: string) => text.replace(/[\s¶*_`]+/g, "").replace(/\[\d{1,3}\]/g, "");
/** An answer's sentence as a reader sees it: Markdown's backslash escapes, `&lt;` and `&amp;` read as the characters they stand for. */
const rendered = (markdown: string) =>
  markdown
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&amp;/g, "&");

interface Tally {
  cited: number;
  found: number;
  /** Cited with a reference that has no anchor (checked against the whole page). */
  pageOnly: number;
}

export function createAnchorPrecision(sources: readonly EvalSource[], dirOf: (source: EvalSource) => string) {
  const tallies = new Map<string, Tally>();
  const misses: string[] = [];
  const tally = (slug: string) => tallies.get(slug) ?? tallies.set(slug, { cited: 0, found: 0, pageOnly: 0 }).get(slug)!;

  /** The section a reference points to, or undefined when the page or its anchor cannot be found. */
  function sectionOf(reference: string): { slug: string; text: string | undefined; anchored: boolean } {
    const { source, text } = referencedSection(reference, sources, dirOf);
    return { slug: source?.slug ?? "other", text, anchored: !!reference.split("#")[1] };
  }

  return {
    /** Checks one answer's cited sentences against its `url_references` (numbered as its markers, after renumbering). */
    record(answer: string, references: readonly string[]) {
      for (const { text, numbers } of citedSentences(answer)) {
        for (const n of numbers) {
          const reference = references[n - 1];
          const section = reference ? sectionOf(reference) : { slug: "other", text: undefined, anchored: false };
          const t = tally(section.slug);
          t.cited++;
          if (!section.anchored) t.pageOnly++;
          if (section.text !== undefined && comparable(section.text).includes(comparable(rendered(text)))) t.found++;
          else misses.push(`${reference ?? `[${n}] (no such reference)`}\n        ${text.slice(0, 140)}`);
        }
      }
    },
    /** Overall precision and per source, e.g. for the eval's summary. */
    summary() {
      const all = [...tallies.values()].reduce((a, t) => ({ cited: a.cited + t.cited, found: a.found + t.found, pageOnly: a.pageOnly + t.pageOnly }), {
        cited: 0,
        found: 0,
        pageOnly: 0,
      });
      const perSource = [...tallies.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([slug, t]) => `${slug} ${t.found}/${t.cited}`);
      return { ...all, precision: all.cited ? all.found / all.cited : NaN, perSource, misses };
    },
  };
}
