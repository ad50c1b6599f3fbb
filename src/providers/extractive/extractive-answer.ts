import type { GroundingDocument } from "../../core/language-model.ts";
import { markdownText } from "../../core/references.ts";
import { contentTerms, type TextAnalyzer } from "../../core/text-analyzer.ts";
import { englishAnalyzer } from "../../text/english-analyzer.ts";
import { lruMemo } from "../lru-memo.ts";
import { inertLinks } from "./inert-links.ts";
import { type Block, itemText, listItems, passageBlocks } from "./passage-blocks.ts";
import { opensCodeSpan, splitSentences } from "./sentences.ts";

export interface ExtractiveOptions {
  maxSentences?: number;
  maxWords?: number;
  /** Sentences scoring below this share of the best one are left out. */
  relativeFloor?: number;
  /** How the question and the passages are read (the analyzer the index uses). */
  analyzer?: TextAnalyzer;
}

/** A code block quoted with a sentence: at most this many lines (a longer one is not an answer to quote). */
const MAX_CODE_LINES = 30;
/** A list quoted whole: at most this many items and words (a list of long entries, such as parameters, is quoted item by item). */
const MAX_LIST_ITEMS = 10;
const MAX_LIST_WORDS = 80;
/** A list short enough to quote whole, each item complete (a passage may end inside one). */
const shortList = (block: Block | undefined) => {
  if (block?.kind !== "list" || block.text.split(/\s+/).length > MAX_LIST_WORDS) return undefined;
  const items = listItems(block);
  return items.length <= MAX_LIST_ITEMS && items.every((item) => /[.!?:;)"'\]`]$/.test(item) || item.split(" ").length <= 8) ? block : undefined;
};

interface Candidate {
  text: string;
  terms: Set<string>;
  /** What follows the sentence in its passage and reads with it: the code it introduces, or its whole list. */
  follow?: Block;
  /** The code block right after the sentence: its example when it holds a word of the question. */
  example?: { block: Block; terms: Set<string> };
  reference: number;
  /** The page the reference belongs to (a page may give several sections, each its own reference). */
  page: string;
  /** Other references whose text holds the very same sentence, cited with it. */
  alsoIn: number[];
  /** Those of them where the sentence brings the very same list: a list quoted whole is cited only where it stands whole. */
  alsoListed: number[];
  order: number;
  score: number;
}

/** A sentence worth quoting: it ends like one (not a heading) and is not code. */
export function isProse(text: string): boolean {
  if (!/[.!?:;)"'\]]$/.test(text)) return false;
  if (/[{}]|=>|;\s*$|^\s*(import|export|const|let|var|def|class|return)\b/.test(text)) return false;
  const symbols = (text.match(/[^\p{L}\p{N}\s.,;:'"()?!-]/gu) ?? []).length;
  return symbols / text.length < 0.08;
}

/**
 * A passage's sentences worth quoting, with their terms and what reads with
 * them: a sentence that introduces code (ends with a colon before a code
 * block) brings the code, one that introduces a list brings the list, and a
 * list item brings its whole list. A colon with nothing to bring is no answer.
 * Passages recur across questions: remembered, per analyzer.
 */
type Quotable = { text: string; terms: Set<string>; index: number; follow?: Block; example?: { block: Block; terms: Set<string> } };
const memos = new WeakMap<TextAnalyzer, (text: string) => Quotable[]>();
function quotableSentences(analyzer: TextAnalyzer) {
  let memo = memos.get(analyzer);
  if (!memo) {
    memo = lruMemo(2048, (text: string) => quotable(text, analyzer));
    memos.set(analyzer, memo);
  }
  return memo;
}

function quotable(text: string, analyzer: TextAnalyzer): Quotable[] {
  const blocks = passageBlocks(text);
  const out: Quotable[] = [];
  let index = 0;
  blocks.forEach((block, b) => {
    if (block.kind === "code") return;
    const next = blocks[b + 1];
    const code = next?.kind === "code" && next.text.split("\n").length <= MAX_CODE_LINES ? next : undefined;
    const list = shortList(next);
    const whole = shortList(block);
    const sentences = block.kind === "list" ? listItems(block).flatMap((item) => splitSentences(itemText(item))) : splitSentences(block.text);
    sentences.forEach((sentence, k) => {
      const at = index++;
      const last = k === sentences.length - 1;
      const words = sentence.split(" ").length;
      if (words < 4 || words > 80 || !isProse(sentence)) return;
      const introduces = last && sentence.endsWith(":") ? (code ?? list) : undefined;
      if (sentence.endsWith(":") && !introduces) return;
      out.push({
        text: sentence,
        terms: new Set(contentTerms(analyzer, sentence)),
        index: at,
        follow: introduces ?? whole,
        ...(last && code && !introduces && { example: { block: code, terms: new Set(contentTerms(analyzer, code.text)) } }),
      });
    });
  });
  return out;
}

/** A block as it reads in an answer: code fenced, a list one item a line. */
function render(block: Block): string {
  if (block.kind !== "code") return inertLinks(listItems(block).join("\n"));
  // Longer than any fence the code shows, so it stays one block.
  const fence = "`".repeat(Math.max(2, ...[...block.text.matchAll(/^[ \t]*(`{3,})/gm)].map((m) => m[1]!.length)) + 1);
  return `${fence}\n${block.text}\n${fence}`;
}

/** The page of a document: its URL without the section's anchor. */
const pageOf = (doc: Pick<GroundingDocument, "url">) => doc.url.replace(/#.*$/, "");

/**
 * A quoted sentence without its source's own note numbers ("session and g [1]
 * objects"): in the answer a bracketed number is a citation, and this one
 * would cite whatever reference 1 is. Code spans keep theirs, and so does
 * a bracketed list that is no note number (`[01,31]`, the range of a day of
 * the month): notes and citations are numbered from 1, never zero-padded.
 */
const withoutNoteNumbers = (text: string) =>
  text
    .split(/(`[^`]*`)/)
    // Only a free-standing one: `argv[2]` glued to its name is an index, not a note; nor is a list an operator
    // takes or gives (`x = [1, 2]`, `[1,2] == (1,2)`: HTML's inline code reaches the passage without its marks).
    .map((part, i) =>
      i % 2 ? part : part.replace(/(?:^\s*|(?<=[^=<>!+\-*/%&|^([,\s])\s+)\[[1-9]\d{0,2}(?:,\s*[1-9]\d{0,2})*\](?![\w(]|\s*[=<>!+\-*/%&|^[]|\.\w)/g, ""),
    )
    .join("")
    .trim();

/**
 * A quoted sentence whose code span opens and never closes (a passage cut
 * inside one) loses its backticks: the answer joins sentences into one
 * paragraph, where that backtick would pair with the next sentence's and make
 * code of the text and citation markers between them.
 */
const balancedCode = (text: string) => (opensCodeSpan(text) ? text.replaceAll("`", "") : text);

const same = (a: string, b: string) => a.replace(/\s+/g, " ").toLowerCase() === b.replace(/\s+/g, " ").toLowerCase();

const jaccard = (a: Set<string>, b: Set<string>) => {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared || 1);
};

/**
 * Writes an answer from the passages: the sentences that share the most
 * (rarity-weighted) terms with the question, each followed by the `[n]` of
 * the section it came from; the same sentence in another section or page is
 * not repeated but cites that one too (`[1, 2]`), and a sentence that only
 * nearly repeats a quoted one is left out: it is credited to no reference,
 * since its page does not say the quoted sentence.
 */
export function extractiveAnswer(question: string, documents: readonly GroundingDocument[], options: ExtractiveOptions = {}): string {
  const maxSentences = options.maxSentences ?? 5;
  const maxWords = options.maxWords ?? 170;
  const analyzer = options.analyzer ?? englishAnalyzer;
  const sentencesOf = quotableSentences(analyzer);
  // Each question term's position: work follows the passages' terms, never the question's length.
  const asked = new Map(contentTerms(analyzer, question).map((term, i) => [term, i]));
  const candidates: Candidate[] = [];
  documents.forEach((doc, docIndex) => {
    const headingTerms = new Set(contentTerms(analyzer, `${doc.title} ${doc.section}`));
    const headingBonus = [...headingTerms].filter((t) => asked.has(t)).length * 0.15;
    // Later passages weigh a little less (the sections of one passage alike).
    const rank = doc.passage ?? docIndex;
    for (const { text, terms, index, follow, example } of sentencesOf(doc.text)) {
      candidates.push({
        text,
        terms,
        follow,
        example,
        reference: doc.referenceNumber,
        page: pageOf(doc),
        alsoIn: [],
        alsoListed: [],
        order: docIndex * 1000 + index,
        score: headingBonus - rank * 0.05,
      });
    }
  });
  if (candidates.length === 0) return "";

  // Rarer question terms count more (idf over the candidate sentences).
  const shared = candidates.map((c) => [...c.terms].filter((t) => asked.has(t)).sort((a, b) => asked.get(a)! - asked.get(b)!));
  const df = new Map<string, number>();
  for (const terms of shared) for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  candidates.forEach((c, i) => {
    for (const term of shared[i]!) c.score += Math.log(1 + candidates.length / df.get(term)!);
    c.score /= Math.max(c.terms.size, 6) ** 0.15;
  });

  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.order - b.order);
  // Only sentences close to the best one: a weak match is noise, not an answer.
  const floor = (ranked[0]?.score ?? 0) * (options.relativeFloor ?? 0.45);
  // A page whose best sentence is weaker, but still about the question, is pointed to rather than quoted.
  const pageFloor = (ranked[0]?.score ?? 0) * 0.2;
  const picked: Candidate[] = [];
  let words = 0;
  const take = (c: Candidate, minimum: number) => {
    if (picked.includes(c)) return;
    if (picked.length > 0 && (c.score <= 0 || c.score < minimum)) return;
    // A section that says the very same sentence supports it: cite it there too. One that
    // nearly repeats it is not quoted again, nor credited with a sentence it does not hold.
    const twin = picked.find((p) => jaccard(p.terms, c.terms) > 0.6);
    if (twin) {
      if (same(twin.text, c.text) && twin.reference !== c.reference && !twin.alsoIn.includes(c.reference)) {
        twin.alsoIn.push(c.reference);
        // Two sections may share a list's first item and differ in the rest (`[in] env` of every Node-API call).
        if (twin.follow && c.follow && same(twin.follow.text, c.follow.text)) twin.alsoListed.push(c.reference);
      }
      return;
    }
    if (picked.length >= maxSentences) return;
    const n = c.text.split(" ").length;
    if (picked.length > 0 && words + n > maxWords) return;
    picked.push(c);
    words += n;
  };
  // First the best sentence of each page (retrieval already judged the pages
  // relevant), so the answer digests every page it is given; then the best
  // remaining sentences that come close to the best one. A page whose best
  // sentence is only loosely about the question is listed under "See also"
  // by its title: a weak sentence quoted as if it answered would mislead.
  const pages = [...new Set(documents.map(pageOf))];
  const seeAlso: Candidate[] = [];
  for (const page of pages) {
    const best = ranked.find((c) => c.page === page);
    if (!best) continue;
    if (picked.length === 0 || best.score >= floor) take(best, floor);
    // Pointed to (at its best sentence's section) unless quoted below (a strong sentence may find no room in the answer).
    if (best.score > 0 && best.score >= pageFloor) seeAlso.push(best);
  }
  for (const c of ranked) take(c, floor);
  // The code right after a quoted sentence is its example when it holds a word of the question.
  const askedFor = (c: Candidate) => c.follow ?? (c.example && [...c.example.terms].some((t) => asked.has(t)) ? c.example.block : undefined);
  // A list item quoted as its whole list is cited where that list stands; a sentence, wherever it stands.
  const wholeList = (c: Candidate) => c.follow?.kind === "list" && !c.text.endsWith(":");
  const citations = (c: Candidate) => [c.reference, ...(wholeList(c) ? c.alsoListed : c.alsoIn)];
  const referencePage = new Map(documents.map((d) => [d.referenceNumber, pageOf(d)]));
  const citedPages = new Set(picked.flatMap(citations).map((reference) => referencePage.get(reference)));
  const pointers = seeAlso.filter((c) => !citedPages.has(c.page)).map((c) => c.reference);
  // Read in document order: the best page first, its sentences as written.
  picked.sort((a, b) => a.order - b.order);
  const shown = new Set<Block>();
  let answer = "";
  for (const c of picked) {
    const block = askedFor(c);
    if (block && shown.has(block)) continue; // its list is already quoted whole
    const cited = `[${citations(c).join(", ")}]`;
    if (wholeList(c)) {
      // A list item brings its whole list: the list is the answer, cited once.
      answer += `${answer ? "\n\n" : ""}${render(block!)} ${cited}\n\n`;
    } else {
      const sentence = `${inertLinks(withoutNoteNumbers(balancedCode(c.text)))} ${cited}`;
      answer += `${answer && !answer.endsWith("\n") ? " " : ""}${sentence}${block ? `\n\n${render(block)}\n\n` : ""}`;
    }
    if (block) shown.add(block);
  }
  answer = answer.replace(/\n{3,}/g, "\n\n").trim();
  if (pointers.length === 0) return answer;
  const titleOf = (reference: number) => documents.find((d) => d.referenceNumber === reference)!.title;
  return `${answer}\n\nSee also: ${pointers.map((reference) => `${markdownText(titleOf(reference))} [${reference}]`).join("; ")}.`;
}
