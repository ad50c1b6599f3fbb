import { isStopWord, tokenize } from "../../core/terms.ts";

/** Distinct query words worth searching for, stop words and noise removed. */
export function queryWords(query: string, max = 16): string[] {
  const words: string[] = [];
  for (const token of tokenize(query)) {
    if (isStopWord(token) || token.length < 2 || words.includes(token)) continue;
    words.push(token);
    if (words.length >= max) break;
  }
  return words;
}

/** FTS5 token under which a source id is indexed (UUID hex, no dashes). */
export const sourceToken = (sourceId: string) => `s${sourceId.toLowerCase().replace(/-/g, "")}`;

const quote = (word: string) => `"${word.replace(/"/g, '""')}"`;

/**
 * An FTS5 MATCH expression: any query word in the text columns, and — inside
 * the engine, not after it — one of the allowed sources.
 */
export function buildMatch(query: string, sourceIds?: readonly string[]): string | null {
  const words = queryWords(query);
  if (words.length === 0) return null;
  const text = `{title section body} : (${words.map(quote).join(" OR ")})`;
  if (!sourceIds) return text;
  if (sourceIds.length === 0) return null;
  return `(${text}) AND (src : (${sourceIds.map((id) => quote(sourceToken(id))).join(" OR ")}))`;
}
