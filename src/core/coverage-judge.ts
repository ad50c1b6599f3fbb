import { ownText } from "./own-text.ts";
import type { RankedPage } from "./rank-pages.ts";
import type { QueryTerm, RetrievalResult } from "./retriever.ts";
import { withoutSetAside } from "./set-aside-phrases.ts";
import type { SourceInfo } from "./source-catalog.ts";
import { distinctiveNameWords, type IsWord } from "./source-names.ts";
import type { TextAnalyzer } from "./text-analyzer.ts";

/**
 * How much of a question (rare words weighing more) the best passage among
 * the candidate references must hold for the sources to be taken to cover it.
 *
 * `open` (the agent chose among all sources): 0.55. Calibrated on dev, check
 * and check2 (81 on-topic questions: the best passage covers at least 0.57 in
 * explicit and 0.60 in agent mode) and the off-topic set (44 questions plus
 * the 5 of the other sets): off-topic questions' words are mostly found one at
 * a time, and half a question is not an answer.
 *
 * `named` (the caller named the sources, the question names one, or there is
 * only one): 0.35. The caller said where the answer is, so only a source with
 * nothing relevant refuses: a passage holding a third of the question is
 * relevant, and so is one writing a code name (no English word) the question
 * writes and holding half that share. Asked of each eval source by name, the
 * off-topic set is still refused 79% of the time for other products and 61%
 * for general knowledge (near-misses 39%: those often are relevant to the
 * source they are asked of).
 */
export const COVERAGE_BARS = { open: 0.55, named: 0.35 };

export interface CoverageQuestion {
  /** The question as searched. */
  query: string;
  /** The candidate references, best first. */
  pages: readonly RankedPage[];
  /** The question's sources were named (see COVERAGE_BARS). */
  named: boolean;
  /** Taken as named only because the caller sees one source: a name its pages never mention still refuses. */
  soleSource?: boolean;
  /** Sources searched: their names are not unknown names. */
  sources: readonly SourceInfo[];
  matches?: RetrievalResult["matches"];
  isWord?: IsWord;
  /** Whether a lower-case word is software jargon (`monorepo`, `webhook`): a compound of English words it lists is no product. */
  isSoftwareTerm?: IsWord;
  /** The one analyzer: its stop words are not names. */
  analyzer: TextAnalyzer;
  /** A page found by meaning at least this similar covers the question whatever its words. */
  minSimilarity: number;
  /** The question's words as the retriever read them, and how common each is in everyday English (see documentationWords). */
  terms?: readonly QueryTerm[];
  everyday?: EverydayShare;
  bars?: { open: number; named: number };
}

/**
 * Names in the question (words that are no English word, nor an acronym
 * written in capitals, nor a lower-case compound of English words that the
 * documentation uses), outside what the question sets aside, that none of the
 * candidate pages holds: "MySQL" in a replication question answered from
 * PostgreSQL pages, "Elasticsearch" in a question about index mappings. A
 * question is about what it names; pages that never mention it answer another
 * product's question. An exception's class name is read by its parts
 * (`ReferenceError` names nothing, `MongoServerError` names Mongo).
 */
export function unknownNames({
  query,
  pages,
  sources,
  matches,
  isWord,
  isSoftwareTerm,
  analyzer,
  terms,
}: Pick<CoverageQuestion, "query" | "pages" | "sources" | "matches" | "isWord" | "isSoftwareTerm" | "analyzer" | "terms">): string[] {
  if (!matches || !isWord) return [];
  const held = new Set(pages.flatMap((p) => p.chunks.flatMap((c) => c.matched)));
  const sourceWords = new Set(sources.flatMap((s) => distinctiveNameWords(s.name, analyzer)));
  // Words the searched documentation uses somewhere (the retriever's counts; unknown without them).
  const used = new Set((terms ?? []).filter((t) => (t.share ?? 0) > 0).map((t) => t.term));
  const names = (written: string, sentenceStart = false): boolean => {
    const word = written.toLowerCase();
    if (word.length < 3 || /\d/.test(word) || written === written.toUpperCase() || analyzer.isStopWord(word) || sourceWords.has(word) || isWord(word))
      return false;
    // A coined word of the documentation's own (`standalone`) or of developers' jargon (`monorepo`), not a product
    // written in lower case (`wordpress`); a sentence's first word is capitalised whatever it is ("Monorepo: …").
    const lower = written === word || (sentenceStart && written === word[0]!.toUpperCase() + word.slice(1));
    if (lower && (used.has(analyzer.term(word)) || isSoftwareTerm?.(word)) && isCompound(word, isWord)) return false;
    return !matches(word).some((t) => held.has(t));
  };
  const unknown: string[] = [];
  // What the question sets aside ("…without pytz") is what the asker does not want, not what it is about.
  const text = ownText(withoutSetAside(query));
  for (const { 0: original, index } of text.matchAll(/\p{L}[\p{L}\p{N}]*/gu)) {
    const exception = EXCEPTION_CLASS.exec(original);
    // An exception the pages write (`RuntimeError`) is known; one they do not is judged by what its parts name.
    if (names(original, startsSentence(text, index)) && (!exception || (exception[1]!.match(CAPITALISED_PARTS) ?? []).some((part) => names(part))))
      unknown.push(original);
  }
  return unknown;
}

/** Whether a word at `at` begins a sentence: nothing but white space before it since the text's start or a `.`, `!`, `?` or `:`. */
function startsSentence(text: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && /\s/.test(text[k]!)) k--;
  return k < 0 || ".!?:".includes(text[k]!);
}

/**
 * An exception's class name (`ReferenceError`, `UnicodeDecodeError`,
 * `DeprecationWarning`): the error the caller saw, their context as a quoted
 * error message is. What it names is in the rest of it: nothing in
 * `ReferenceError`, Mongo in `MongoServerError`.
 */
const EXCEPTION_CLASS = /^(\p{Lu}[\p{L}\p{N}]*?)(?:Error|Exception|Warning)$/u;
/** A CamelCase name's parts: `SQLAlchemy` → SQL, Alchemy; `UnicodeDecode` → Unicode, Decode. */
const CAPITALISED_PARTS = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+/gu;

/** Compounds longer than this are not split (a hostile 50,000-letter "word" would cost a look-up per letter of that many letters). */
const MAX_COMPOUND = 30;

/**
 * A word written in lower case that joins two English words of at least
 * three letters each: `standalone`, `monorepo`, `codebase`, `webhook`,
 * `localhost`, `subfolder`. Technical prose coins such words faster than a
 * word list takes them in. Product names are made so too (`webpack`,
 * `wordpress`, `github`), which is why only one the documentation uses, or
 * one a dictionary of software jargon lists and no product dictionary does
 * (see software-terms.ts), counts.
 */
function isCompound(word: string, isWord: IsWord): boolean {
  if (word.length > MAX_COMPOUND) return false;
  for (let at = 3; at <= word.length - 3; at++) if (isWord(word.slice(0, at)) && isWord(word.slice(at))) return true;
  return false;
}

/**
 * Names the question writes as code: dotted (`itertools.groupby`,
 * `response.text`), called (`require()`), snake_case (`search_path`) or
 * CONSTANT_CASE (`ERR_REQUIRE_ESM`), or anything in backticks. Read token by
 * token (split on white space, at most 100 characters each), so a hostile
 * question costs one pass. Not camelCase or CamelCase alone: product names
 * (`macOS`, `PostgreSQL`) are written so too.
 */
export function codeNames(query: string): string[] {
  const names = new Set<string>();
  for (const [, inner] of query.matchAll(/`([^`\n]{3,100})`/g)) names.add(inner!.replace(/\(.*$/, "").trim());
  for (const raw of query.split(/\s+/)) {
    if (names.size >= 64) break;
    if (raw.length > 100) continue;
    const token = raw.replace(/^[^\p{L}_$]+/u, "").replace(/[^\p{L}\p{N}_$)]+$/u, "");
    const called = /^([A-Za-z_$][\w$.]*)\(/.exec(token);
    const name = called ? called[1]! : token;
    if (
      called ||
      /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(name) ||
      /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(name) ||
      /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(name)
    )
      names.add(name.replace(/\.+$/, ""));
  }
  // Short names (`len`, `e.g`) say little: a code name is specific, at least six characters.
  return [...names].filter((n) => n.replace(/[^\p{L}\p{N}]/gu, "").length >= 6);
}

/** A host name (`github.com`, `docs.python.org`): an address the question mentions, not code it is about. */
const HOST_NAME = /^[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|edu|gov|app|ai|co|uk|de|fr|eu|info|local|internal)$/i;

/** How many of a question's code names are looked for in the candidate passages. */
const MAX_CODE_NAMES = 16;

/**
 * A code name of the question that a candidate passage writes as such (the name itself, not its words apart).
 * `isWord`: only names that are no English word nor a host name count (`response.text`, `search_path`, not `vacuum(`, `` `cluster` `` or `github.com`).
 */
function heldCodeName(query: string, pages: readonly RankedPage[], sources: readonly SourceInfo[], analyzer: TextAnalyzer, isWord?: IsWord): boolean {
  const sourceWords = new Set(sources.flatMap((s) => distinctiveNameWords(s.name, analyzer)));
  const letters = (n: string) => n.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const names = codeNames(query)
    // A product's own name written with a dot (`Node.js`) names the source, not something in it.
    .filter((n) => !sourceWords.has(letters(n)) && !(isWord && (isWord(letters(n)) || HOST_NAME.test(n))))
    .map((n) => n.toLowerCase());
  if (names.length === 0) return false;
  // Each passage lowered once, and a question's first names only: a caller writing thousands of names must not cost names × passages.
  const asked = names.slice(0, MAX_CODE_NAMES);
  return pages.some((p) =>
    p.chunks.some((c) => {
      const text = c.text.toLowerCase();
      return asked.some((n) => containsName(text, n));
    }),
  );
}

/** `name` in `text` not as part of a longer name (`groupby` is not in `groupbykey`, `os.walk` not in `pos.walker`). */
function containsName(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    if ((before === undefined || !/[\w$]/.test(before)) && (after === undefined || !/[\w$]/.test(after))) return true;
  }
  return false;
}

/** The share of the question the best-covering candidate holds (any candidate, not only the best-ranked page); null without candidates. */
export const bestCoverage = (pages: readonly RankedPage[]): number | null => (pages.length ? Math.max(...pages.map((p) => p.coverage)) : null);

/** The share of everyday spoken English's words that are this term (stemmed as the analyzer reads text). */
export type EverydayShare = (term: string) => number;

/**
 * A word is the documentation's own when the indexed passages use it at
 * least this many times as often, per word, as everyday speech does: what
 * corpus linguistics calls a key word of a text against a reference corpus.
 */
const KEYNESS = 2;

/**
 * The question's words that are the indexed documentation's own vocabulary
 * ("commit", "timeout", "itertools"); null when it cannot be told (a retriever
 * that does not count words, or no reference frequencies). Every on-topic
 * question of the tuning sets has one, at least 7 times as common in the
 * documentation as in speech; small talk and general knowledge ("how was your
 * weekend?", "when did the Berlin Wall fall?") often have none: their words
 * are said more than written in manuals. Numbers say nothing either way.
 */
export function documentationWords(terms: readonly QueryTerm[] | undefined, everyday: EverydayShare | undefined): string[] | null {
  if (!terms || !everyday || terms.some((t) => t.share === undefined)) return null;
  return terms.filter((t) => !/^\d+$/.test(t.term) && t.share! > 0 && t.share! >= KEYNESS * everyday(t.term)).map((t) => t.text);
}

/** Whether the candidate pages cover the question well enough to answer from them. */
export function coversQuestion(q: CoverageQuestion): boolean {
  const bars = q.bars ?? COVERAGE_BARS;
  if (q.pages.length === 0) return false;
  if (q.pages.some((p) => p.similarity >= q.minSimilarity)) return true;
  if (documentationWords(q.terms, q.everyday)?.length === 0) return false;
  const coverage = bestCoverage(q.pages)!;
  // A named source refuses only when nothing in it is relevant, and a passage writing a code name of the question
  // that is no English word (`response.text`) is relevant to it, holding half the bar's share of the story around
  // the name (a word typed as a call, `vacuum(`, or a host name, `github.com`, is no code).
  const namesHeldCode = () => q.isWord !== undefined && coverage >= bars.named / 2 && heldCodeName(q.query, q.pages, q.sources, q.analyzer, q.isWord);
  if (q.named) return (coverage >= bars.named || namesHeldCode()) && (!q.soleSource || unknownNames(q).length === 0);
  // A question that names code the documentation writes (`itertools.groupby`) is about it, however much story
  // surrounds the name: for it the agent's bar is the one for named sources.
  const bar = coverage >= bars.named && coverage < bars.open && heldCodeName(q.query, q.pages, q.sources, q.analyzer) ? bars.named : bars.open;
  return coverage >= bar && unknownNames(q).length === 0;
}
