import type { SourceInfo } from "./source-catalog.ts";
import type { TextAnalyzer } from "./text-analyzer.ts";

const GENERIC_NAME_WORDS = new Set(["documentation", "docs", "doc", "reference", "api", "manual", "guide", "the", "and", "of", "for", "library", "official"]);

/** Whether a word is a dictionary word: lets a shortened or misspelt name still name its source. */
export type IsWord = (word: string) => boolean;

/** How names are read: the one analyzer's words, and optionally a dictionary (see IsWord). */
export interface NameReading {
  analyzer: TextAnalyzer;
  isWord?: IsWord;
}

const telling = (word: string) => !GENERIC_NAME_WORDS.has(word) && !/^\d+$/.test(word) && word.length >= 3;

/** Words of a source's name that identify it ("postgresql"; "node.js" → "node" and, as people type it, "nodejs"). */
export function distinctiveNameWords(name: string, analyzer: TextAnalyzer): string[] {
  const words = new Set<string>();
  for (const written of name.split(/\s+/)) {
    const parts = analyzer.words(written);
    for (const part of parts) if (telling(part)) words.add(part);
    // "node.js" → "nodejs", "scikit-learn" → "scikitlearn".
    const joined = parts.join("");
    if (parts.length > 1 && telling(joined)) words.add(joined);
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
export function mentionedSources(query: string, sources: readonly SourceInfo[], { analyzer, isWord }: NameReading): SourceInfo[] {
  const words = [...new Set(analyzer.words(query))];
  return sources.filter((source) => words.some(namesWith(distinctiveNameWords(source.name, analyzer), isWord)));
}

/**
 * The question without the names of the sources searched: within the SQLite
 * docs, "SQLite" tells nothing and would favour pages that merely repeat it.
 */
export function withoutSourceNames(query: string, sources: readonly SourceInfo[], { analyzer, isWord }: NameReading): string {
  const nameWords = sources.flatMap((s) => distinctiveNameWords(s.name, analyzer));
  if (nameWords.length === 0) return query;
  const names = namesWith(nameWords, isWord);
  const kept = query.split(/\s+/).filter((written) => {
    const parts = analyzer.words(written);
    // "Node.js?" names Node.js as "nodejs"; "Python's" names Python (a possessive leaves a one-letter word).
    const named = parts.length > 0 && (names(parts.join("")) || (names(parts[0]!) && parts.slice(1).every((p) => p.length === 1)));
    return !named;
  });
  return kept.length > 0 ? kept.join(" ") : query;
}
