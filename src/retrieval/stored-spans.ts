import type { SectionSpan } from "../core/retriever.ts";

/** A passage's section spans as one stored text (JSON; "" for a passage of one section). */
export const storedSpans = (spans: readonly SectionSpan[] | undefined) =>
  spans && spans.length > 1 ? JSON.stringify(spans.map((s) => [s.start, s.anchor, s.section])) : "";

export function readSpans(stored: string | undefined): SectionSpan[] | undefined {
  if (!stored) return undefined;
  return (JSON.parse(stored) as Array<[number, string, string]>).map(([start, anchor, section]) => ({ start, anchor, section }));
}
