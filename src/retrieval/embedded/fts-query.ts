export { queryWords } from "../query-words.ts";

/** FTS5 token under which a source id is indexed (UUID hex, no dashes). */
export const sourceToken = (sourceId: string) => `s${sourceId.toLowerCase().replace(/-/g, "")}`;

const quote = (word: string) => `"${word.replace(/"/g, '""')}"`;

const TEXT_COLUMNS = "{title section body idents}";

/**
 * An FTS5 MATCH expression: a chunk qualifies with any of the `selectors`
 * (default: every word), is ranked on all `words`, and — inside the engine,
 * not after it — belongs to one of the allowed sources.
 */
export function buildMatch(words: readonly string[], sourceIds?: readonly string[], selectors: readonly string[] = words): string | null {
  if (words.length === 0 || selectors.length === 0) return null;
  const any = (ws: readonly string[]) => `${TEXT_COLUMNS} : (${ws.map(quote).join(" OR ")})`;
  const text = selectors.length === words.length || selectors === words ? any(words) : `(${any(selectors)}) AND (${any(words)})`;
  if (!sourceIds) return text;
  if (sourceIds.length === 0) return null;
  return `(${text}) AND (src : (${sourceIds.map((id) => quote(sourceToken(id))).join(" OR ")}))`;
}
