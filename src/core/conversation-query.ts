import { type ChatMessage, messageText } from "./chat-request.ts";
import { contentTerms, type TextAnalyzer } from "./text-analyzer.ts";

const OPENING_TAG = /<([A-Za-z][\w.-]{0,63})(?:\s[^<>]{0,256})?>/y;

/**
 * A user turn that is only tagged blocks (`<environment_context>…</environment_context>`):
 * context a client added (coding agents send the working directory, shell
 * and project notes so), not something the person asked. Read block by block
 * with `indexOf`, so a hostile turn costs one pass, not a backtracking pattern's.
 */
export function isContextBlock(text: string): boolean {
  let at = 0;
  while (at < text.length) {
    OPENING_TAG.lastIndex = at;
    const open = OPENING_TAG.exec(text);
    if (!open) return false;
    const closing = `</${open[1]}>`;
    const end = text.indexOf(closing, OPENING_TAG.lastIndex);
    if (end < 0) return false;
    at = end + closing.length;
    while (at < text.length && /\s/.test(text[at]!)) at++;
  }
  return at > 0;
}

/**
 * The text to retrieve with. The last user message leads; a follow-up
 * ("and how do I drop it?", "what about SQLite?", "any downside?") borrows
 * the previous question so the subject carries over.
 */
export function retrievalQuery(
  messages: readonly ChatMessage[],
  analyzer: TextAnalyzer,
  { sourcesNamed }: { sourcesNamed?: (text: string) => readonly string[] } = {},
): string {
  const userTurns = messages
    .filter((m) => m.role === "user")
    .map((m) => messageText(m).trim())
    .filter(Boolean);
  const last = userTurns.at(-1) ?? "";
  // Tagged turns are context when the question is not written so: a client that wraps every question in tags
  // (`<user_query>…</user_query>`) asked its earlier ones so too.
  const tagged = isContextBlock(last);
  const asked = userTurns.slice(0, -1).filter((t) => tagged || !isContextBlock(t));
  if (asked.length === 0) return last;
  // Only whether it has more than two terms matters: a long message is not read to its end. Three make a question
  // of its own ("revoke API key"); one or two ("any downside?") lean on what came before.
  const lastTerms = contentTerms(analyzer, last, 3);
  const leans = lastTerms.length <= 2 || /^(and|what about|how about|what if|also|then)\b/i.test(last);
  const fragment = !leans && isFragment(last);
  if (!leans && !fragment && !refersBack(last)) return last;
  // A question of its own length that names a source the previous one did not has moved on: its pronouns are its
  // own ("does postgres support json columns and can I index them?" after a git question). A fragment naming one
  // asks the same of it ("with requests instead of urllib").
  if (!leans && !fragment && sourcesNamed) {
    const before = new Set(sourcesNamed(asked.at(-1)!));
    if (sourcesNamed(last).some((id) => !before.has(id))) return last;
  }
  return `${last} ${asked.at(-1)}`;
}

/** Words that open a fragment continuing the previous question ("with a tab delimiter", "but skipping symlinks"). */
const FRAGMENT_OPENERS = new Set([
  "with",
  "without",
  "using",
  "via",
  "from",
  "for",
  "on",
  "in",
  "into",
  "only",
  "including",
  "excluding",
  "except",
  "but",
  "or",
  "same",
  "per",
  "rather",
  "instead",
]);
/** A question asks with one of these; a fragment has none ("for just one table" against "for a flask app, where do I…"). */
const ASKING = /\b(how|what|whats|what's|why|when|where|which|who|can|could|does|do|did|is|are|should|would|will)\b/i;

/**
 * A message that only adds to the previous question: it opens as a phrase
 * would ("with a custom status code", "only locally, not on the remote",
 * "or compressed, to save space") and asks nothing of its own. One that opens
 * so but asks ("in python, how do I sort a list?") is a question.
 */
export function isFragment(question: string): boolean {
  const first = /^[^A-Za-z]*([A-Za-z]+)/.exec(question.slice(0, 64))?.[1]?.toLowerCase();
  return first !== undefined && FRAGMENT_OPENERS.has(first) && !ASKING.test(question.slice(0, 2000));
}

/** Personal pronouns: in a question asked after another, they mostly stand for what was asked before. */
const PERSONAL = new Set(["it", "its", "it's", "them"]);
/** Demonstratives point at something the conversation knows ("that setting", "how do I fix this?"). */
const DEMONSTRATIVE = new Set(["this", "that", "these", "those"]);
/** Words that open a noun phrase (or, after "that", a clause: "check that a file exists"). */
const DETERMINERS = new Set(["a", "an", "the", "my", "our", "your", "his", "her", "their", "its", "some", "any", "each", "every", "no", "all", "another"]);
const SUBJECTS = new Set(["i", "you", "we", "they", "he", "she", "it", "there", "this", "these", "those", "nothing", "everything", "something", "someone"]);
/** Before a pronoun, these make it the subject of a question ("is that a good idea?", "does that work?"), not a clause's opener. */
const AUXILIARIES = new Set(["is", "was", "are", "were", "does", "did", "do", "will", "would", "can", "could", "should", "might", "may"]);
/** "Is it possible to…", "is it faster to…", "does it matter whether…": an `it` that stands for what follows. */
const IMPERSONAL = new Set([
  "possible",
  "impossible",
  "ok",
  "okay",
  "safe",
  "unsafe",
  "necessary",
  "worth",
  "better",
  "best",
  "worse",
  "advisable",
  "recommended",
  "allowed",
  "true",
  "normal",
  "bad",
  "good",
  "faster",
  "slower",
  "easier",
  "harder",
  "cheaper",
  "wise",
  "common",
  "usual",
  "required",
  "important",
  "fine",
  "wrong",
  "right",
  "easy",
  "hard",
  "difficult",
  "matter",
  "matters",
]);
const IMPERSONAL_NEXT = new Set(["to", "that", "if", "when", "whether", "which", "what", "how"]);
/** How far into a question its pronouns are read (a hostile message is not read to its end). */
const MAX_WORDS_READ = 200;

/**
 * Whether a question leans on an earlier turn through a pronoun: "how do I
 * drop it without locking the table?", "how do I do that in SQLite?", "is
 * that a good idea for a database?". Not a `that` opening a clause or
 * following its noun ("check that a file exists", "a function that returns a
 * list"), nor an impersonal `it` ("is it possible to…", "does it matter
 * whether…"). A personal pronoun after a noun of the question's own ("a
 * file… before opening it") is still read as leaning: a missed follow-up
 * loses its subject, while a question borrowed needlessly still leads with
 * its own words (and see `retrievalQuery` for one that names another
 * source). Read word by word, without a grammar.
 */
export function refersBack(question: string): boolean {
  const words: string[] = [];
  // Word by word, so a message of millions of words costs what its first 200 cost.
  for (const [word] of question.matchAll(/[A-Za-z]+(?:'[A-Za-z]+)?/g)) if (words.push(word.toLowerCase()) >= MAX_WORDS_READ) break;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    if (DEMONSTRATIVE.has(word)) {
      const asked = i > 0 && AUXILIARIES.has(words[i - 1]!);
      const clause = word === "that" && !asked && next !== undefined && (DETERMINERS.has(next) || SUBJECTS.has(next));
      const relative = word === "that" && i >= 2 && DETERMINERS.has(words[i - 2]!);
      if (!clause && !relative) return true;
    } else if (PERSONAL.has(word)) {
      const impersonal = word.startsWith("it") && [1, 2].some((k) => IMPERSONAL.has(words[i + k] ?? "") && IMPERSONAL_NEXT.has(words[i + k + 1] ?? ""));
      if (!impersonal) return true;
    }
  }
  return false;
}

export function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user") return messageText(message);
  }
  return "";
}
