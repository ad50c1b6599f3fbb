import type { SourceInfo } from "./source-catalog.ts";

export type SmallTalk = "greeting" | "thanks" | "farewell" | "about" | "reaction";

/** A fix reported back ("great, that fixed it"): thanks, but only in a message made of social phrases (see WEAK). */
const FIX_REPORTED = [
  "that fixed it",
  "that did it",
  "that did the trick",
  "that solved it",
  "that worked",
  "it worked",
  "it works",
  "it works now",
  "works now",
  "problem solved",
];
/** A first message that only checks the service answers; likewise weak. */
const SERVICE_CHECK = ["test", "testing", "just testing", "this is a test"];

/**
 * The social phrases of English, by what they do: a closed class of language
 * (not words picked from questions), matched as whole phrases. A message made
 * only of these (and of filler such as "so much", "there", "again") is small
 * talk; one that asks anything else is a question, greeting or not.
 */
const PHRASES: Array<[SmallTalk, string[]]> = [
  [
    "thanks",
    [
      "thank you",
      "thank u",
      "thanks",
      "thanx",
      "thx",
      "ty",
      "cheers",
      "much appreciated",
      "appreciate it",
      "appreciated",
      "that helped",
      "this helped",
      "that helps",
      "this helps",
      "helpful",
      "very helpful",
      "that was helpful",
      "that's helpful",
      "great",
      "awesome",
      "perfect",
      "excellent",
      "nice",
      "cool",
      "brilliant",
      "wonderful",
      "got it",
      "ok",
      "okay",
      "alright",
      "all right",
      "understood",
      "makes sense",
      "great answer",
      "good answer",
      "good job",
      "well done",
      "you're the best",
      "you are the best",
      "thanks a bunch",
      "you saved me",
      "you rock",
      // A fix reported back is thanks too: "great, that fixed it".
      ...FIX_REPORTED,
    ],
  ],
  [
    "farewell",
    [
      "bye",
      "bye bye",
      "goodbye",
      "good bye",
      "see you",
      "see ya",
      "see you later",
      "later",
      "take care",
      "good night",
      "have a nice day",
      "have a good day",
      "that's all",
      "that is all",
      "that's it",
      "i'm done",
      "i am done",
    ],
  ],
  [
    "greeting",
    [
      "hi",
      "hello",
      "hey",
      "heya",
      "hiya",
      "howdy",
      "greetings",
      "yo",
      "good morning",
      "good afternoon",
      "good evening",
      "good day",
      "morning",
      "evening",
      "how are you",
      "how are you doing",
      "how's it going",
      "how is it going",
      "what's up",
      "whats up",
      "sup",
      "how do you do",
      "nice to meet you",
      "pleased to meet you",
      "are you there",
      "are you still there",
      "is anyone there",
      "anyone there",
      // A first message that only checks the service answers.
      ...SERVICE_CHECK,
    ],
  ],
  [
    "about",
    [
      "who are you",
      "what are you",
      "what is this",
      "what can you do",
      "what can you help with",
      "what can you help me with",
      "what do you do",
      "what do you know",
      "what can i ask",
      "what can i ask you",
      "what should i ask",
      "how can you help",
      "how can you help me",
      "can you help me",
      "can you help",
      "help",
      "help me",
      "are you a bot",
      "are you human",
      "what's your name",
      "what is your name",
      // Chit-chat that asks docent to be something else: answered with what it is for.
      "are you a robot",
      "are you real",
      "are you an ai",
      "are you alive",
      "who made you",
      "who created you",
      "who built you",
      "how old are you",
      "where are you from",
      "do you have feelings",
      "tell me a joke",
      "tell me another joke",
      "tell me a story",
      "tell me something funny",
      "say something funny",
      "make me laugh",
      "sing me a song",
      "sing a song",
      "let's chat",
      "let's talk",
      "i'm bored",
      "i am bored",
      "i love you",
      "can i ask you something",
      "can i ask you a question",
      "i have a question",
    ],
  ],
  /**
   * Interjections and reactions, a closed class too: a message made of them
   * ("lol", "wow, nice", "hmm, interesting") reacts to the last answer and
   * asks nothing.
   */
  [
    "reaction",
    [
      "lol",
      "lmao",
      "haha",
      "hahaha",
      "hehe",
      "heh",
      "wow",
      "whoa",
      "hmm",
      "hm",
      "huh",
      "oh",
      "ah",
      "aha",
      "oops",
      "yay",
      "yikes",
      "meh",
      "interesting",
      "nice one",
      "good one",
      "fair enough",
      "i see",
      "no way",
      "sure",
      "yes",
      "yeah",
      "yep",
      "nope",
    ],
  ],
];
const FILLER = new Set([
  "so",
  "much",
  "very",
  "a",
  "lot",
  "again",
  "there",
  "docent",
  "everyone",
  "all",
  "folks",
  "friend",
  "mate",
  "buddy",
  "and",
  "oh",
  "well",
  "then",
  "for",
  "your",
  "the",
  "that",
  "it",
  "now",
  "today",
  "please",
  "just",
  "really",
  "guys",
  "bot",
  "assistant",
  "you",
  "too",
  "as",
  "always",
  "tons",
  "many",
  "indeed",
  "sorry",
]);

/** Acknowledgements that also open a follow-up ("ok, and for SQLite"): with them, a message must be only social phrases. */
const WEAK = new Set([
  "ok",
  "okay",
  "alright",
  "all right",
  "cool",
  "nice",
  "great",
  "awesome",
  "perfect",
  "excellent",
  "brilliant",
  "wonderful",
  "understood",
  "makes sense",
  "got it",
  // Said of a fix or a first try, they also open a question or a complaint ("test the database", "nothing works now").
  ...FIX_REPORTED,
  ...SERVICE_CHECK,
]);

/** Phrases longest first, as word arrays, so "thank you" wins over "you". */
const PATTERNS = PHRASES.flatMap(([kind, phrases]) => phrases.map((p) => ({ kind, words: p.split(" "), strong: kind !== "reaction" && !WEAK.has(p) }))).sort(
  (a, b) => b.words.length - a.words.length,
);

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .split(/[^\p{L}\p{N}']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ""))
    .filter(Boolean);

/** Longer than this, a message is no small talk. */
const MAX_SMALL_TALK_CHARS = 300;

/** When a message does several things, the one a reply should answer: "ok, bye" takes leave, "hi, what can you do?" asks. */
const PRIORITY: SmallTalk[] = ["farewell", "thanks", "about", "greeting", "reaction"];

/**
 * English's closed-class words that state rather than ask (pronouns,
 * determiners, prepositions, "be" and "have"): beside a clear greeting or
 * thanks they name no subject. Negation, contrast and question words are not
 * among them: "thanks, but that did not work" and "hmm, what does it do?" ask.
 */
const FUNCTION_WORDS = new Set(
  "i i'm me my we us our you you're your he she they them it it's its this that that's these those am was were be been being have has had a an the and to of in on at by with from up out over into about as for just all any anyone someone anything something everything nothing here there".split(
    " ",
  ),
);

/**
 * What a message does when it is small talk, or null when it asks anything
 * else. Small talk is a message made only of social phrases and filler
 * ("thank you so much", "ok bye"), or a clear greeting, thanks or farewell
 * with a short clause that states something of one ordinary word at most
 * ("that worked, thank you!", "hi, I'm Sam"). Anything asked ("…?"), a
 * second word of substance, a bare word ("hello, pagination"), a name, or
 * words beside a mere "ok" or "hmm" are left to retrieval.
 */
export function smallTalk(text: string, isWord?: (word: string) => boolean): SmallTalk | null {
  // Twelve words fit in far less; a long message is not read word by word only to be told so (a hostile one is 100,000 characters).
  if (text.trim().length > MAX_SMALL_TALK_CHARS) return null;
  const ws = words(text);
  if (ws.length === 0 || ws.length > 12) return null;
  const kinds = new Set<SmallTalk>();
  let strong = false;
  let clause = false;
  const content: string[] = [];
  for (let i = 0; i < ws.length; ) {
    const hit = PATTERNS.find((p) => p.words.every((w, k) => ws[i + k] === w));
    if (hit) {
      kinds.add(hit.kind);
      strong ||= hit.strong;
      i += hit.words.length;
      continue;
    }
    if (FUNCTION_WORDS.has(ws[i]!)) clause = true;
    else if (!FILLER.has(ws[i]!)) content.push(ws[i]!);
    i++;
  }
  if (kinds.size === 0 || content.length > 1) return null;
  // Words beyond the phrases: only beside a clear greeting, thanks or farewell, never asked.
  if ((clause || content.length > 0) && (!strong || /\?\s*$/.test(text))) return null;
  // The one word of substance: in a clause of its own, and an ordinary English word (a name is a subject).
  if (content.length === 1 && (!clause || (isWord && !isWord(content[0]!)))) return null;
  return PRIORITY.find((k) => kinds.has(k)) ?? null;
}

/** Names a few sources, and how many more there are. */
function sourceList(sources: readonly SourceInfo[]): string {
  const names = sources.slice(0, 4).map((s) => s.name);
  const more = sources.length - names.length;
  if (more > 0) return `${names.join(", ")} and ${more} more`;
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0]!;
}

/** What docent answers, naming the sources. */
export const whatDocentAnswers = (sources: readonly SourceInfo[]) =>
  sources.length === 0
    ? "I answer questions from documentation, but no knowledge source is available to me (none has been added, or none is open to this API key)."
    : `I answer questions from the documentation in my knowledge sources (${sourceList(sources)}) and cite the pages I draw on.`;

/** A short friendly reply to small talk that says what docent can answer. */
export function smallTalkReply(kind: SmallTalk, sources: readonly SourceInfo[]): string {
  const opening = { greeting: "Hello!", thanks: "You're welcome!", farewell: "Goodbye!", about: "I'm docent.", reaction: "Glad to help." }[kind];
  const can = whatDocentAnswers(sources);
  const ask = {
    greeting: " What would you like to know?",
    thanks: " Ask me anything else about them.",
    farewell: " Come back with any question about them.",
    about: " Ask me how to do something, for example.",
    reaction: " What would you like to know next?",
  }[kind];
  return `${opening} ${can}${sources.length === 0 ? "" : ask}`;
}

const LEADING = /^\s*(?:(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening))(?:\s+(?:there|docent|all|everyone))?[\s,!.:;-]+)+/i;
// The closing punctuation sits outside the repeated group: inside it, it and the next round's separators could
// both take the same spaces, and backtracking doubled with each "  please" (217 characters blocked the server 3.5 s).
const TRAILING = /(?:[\s,!.:;-]+(?:thanks(?: a lot| so much| in advance)?|thank you(?: so much| very much| in advance)?|thx|cheers|please))+[\s!.]*$/i;
/** Thanks come at the end: only this much of a message is searched for them (an unanchored search is quadratic in a run of separators). */
const TRAILING_WINDOW = 1000;

/** The question without a greeting before it or thanks after it: "Hi! How do I…? Thanks" searches "How do I…?". */
export function withoutPleasantries(text: string): string {
  const greeted = text.replace(LEADING, "");
  const cut = Math.max(0, greeted.length - TRAILING_WINDOW);
  const stripped = (greeted.slice(0, cut) + greeted.slice(cut).replace(TRAILING, "")).trim();
  return stripped || text;
}
