import type { SourceInfo } from "./source-catalog.ts";
import { firstToken, tokenize } from "./terms.ts";

const GENERIC_NAME_WORDS = new Set(["documentation", "docs", "doc", "reference", "api", "manual", "guide", "the", "and", "of", "for", "library", "official"]);

/** Whether a word is a dictionary word: lets a shortened or misspelt name still name its source. */
export type IsWord = (word: string) => boolean;

/** Words of a source's name that identify it ("postgresql"; "node.js" → also "node" and "nodejs"). */
export function distinctiveNameWords(name: string): string[] {
  const words = new Set<string>();
  for (const token of tokenize(name)) {
    if (GENERIC_NAME_WORDS.has(token) || /^[\d.]+$/.test(token) || token.length < 3) continue;
    words.add(token);
    if (token.endsWith(".js")) words.add(token.slice(0, -3));
    // As people type it: "node.js" → "nodejs", "scikit-learn" → "scikitlearn".
    if (/[.\-']/.test(token)) words.add(token.replace(/[.\-']/g, ""));
  }
  return [...words];
}

/** Whether two words are at most one edit apart (a letter deleted, inserted, replaced, or two neighbours swapped). */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    const rest = (k: number) => a.slice(k) === b.slice(k);
    return i === a.length || rest(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(i + 2));
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

/**
 * Whether a question's word names a source: one of its name words, or, for a
 * word that is no dictionary word, a short form of one ("postgres" →
 * postgresql) or a typo one edit away ("pyhton" → python).
 */
function namesWith(nameWords: readonly string[], isWord?: IsWord) {
  const exact = new Set(nameWords);
  const long = nameWords.filter((w) => w.length >= 5);
  return (token: string) => {
    if (exact.has(token)) return true;
    if (!isWord || token.length < 5 || long.length === 0 || !/^[a-z]+$/.test(token)) return false;
    let near = false;
    for (const w of long) if ((near = (w.startsWith(token) && w.length - token.length <= 2) || withinOneEdit(token, w))) break;
    // Checked last: the dictionary is only consulted for a word that looks like a name.
    return near && !isWord(token);
  };
}

/** Sources whose name the question mentions (each distinct word is looked at once). */
export function mentionedSources(query: string, sources: readonly SourceInfo[], isWord?: IsWord): SourceInfo[] {
  const words = [...new Set(tokenize(query))];
  return sources.filter((source) => words.some(namesWith(distinctiveNameWords(source.name), isWord)));
}

/**
 * The question without the names of the sources searched: within the SQLite
 * docs, "SQLite" tells nothing and would favour pages that merely repeat it.
 */
export function withoutSourceNames(query: string, sources: readonly SourceInfo[], isWord?: IsWord): string {
  const nameWords = sources.flatMap((s) => distinctiveNameWords(s.name));
  if (nameWords.length === 0) return query;
  const names = namesWith(nameWords, isWord);
  const kept = query.split(/\s+/).filter((word) => {
    const token = firstToken(word);
    return !token || !names(token);
  });
  return kept.length > 0 ? kept.join(" ") : query;
}
