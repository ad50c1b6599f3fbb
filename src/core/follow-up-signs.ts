/**
 * How a chat message shows that it leans on the previous question (see
 * conversation-query.ts): a pronoun standing for what was asked before, or a
 * fragment that only adds to it. Read word by word from the message's start,
 * without a grammar, so any message costs what its first words cost.
 */

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
 * "or compressed, to save space"), is short and asks nothing of its own. One
 * that opens so but asks ("in python, how do I sort a list?") is a question.
 */
export function isFragment(question: string): boolean {
  const first = /^[^A-Za-z]*([A-Za-z]+)/.exec(question.slice(0, 64))?.[1]?.toLowerCase();
  if (first === undefined || !FRAGMENT_OPENERS.has(first)) return false;
  // Short: a longer message opening so states its own request ("in postgres list every index on a table with its size").
  const opening = question.slice(0, 400);
  return (opening.match(/\S+/g) ?? []).length <= MAX_FRAGMENT_WORDS && !ASKING.test(opening);
}

/** A fragment adds a phrase or two to a question: at most this many words. */
const MAX_FRAGMENT_WORDS = 8;

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
