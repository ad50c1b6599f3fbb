import { isStopWord } from "../core/terms.ts";

/** Distinct query words worth searching for, split as the index splits them (`node.js` → node, js), stop words removed. */
export function queryWords(query: string, max = 16): string[] {
  const words: string[] = [];
  for (const [token] of query.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    if (isStopWord(token) || token.length < 2 || words.includes(token)) continue;
    words.push(token);
    if (words.length >= max) break;
  }
  return words;
}
