import type { PageLink } from "../core/retriever.ts";

/** A passage's links as one stored text: a line per linked page, its URL and the words of the links to it, tab-separated. */
export const storedLinks = (links: readonly PageLink[] | undefined) => (links ?? []).map((l) => `${l.url}\t${l.text.replace(/\s+/g, " ")}`).join("\n");

export function readLinks(stored: string | undefined): PageLink[] {
  if (!stored) return [];
  return stored.split("\n").map((line) => {
    const tab = line.indexOf("\t");
    return tab < 0 ? { url: line, text: "" } : { url: line.slice(0, tab), text: line.slice(tab + 1) };
  });
}
