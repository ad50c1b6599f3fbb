import { type ChatMessage, messageText } from "./chat-request.ts";
import { isFragment, refersBack } from "./follow-up-signs.ts";
import { contentTerms, type TextAnalyzer } from "./text-analyzer.ts";

/** How much of a message is read for the names of sources (see retrievalQuery). */
const NAMES_READ = 2000;

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
  // asks the same of it ("with requests instead of urllib"), unless its opening phrase sets the scene ("In
  // PostgreSQL, list every index…"). Names are read from a message's opening only: it costs what that costs.
  if (!leans && sourcesNamed) {
    const named = (text: string) => sourcesNamed(text.slice(0, NAMES_READ));
    const before = new Set(named(asked.at(-1)!));
    const moved = (text: string) => named(text).some((id) => !before.has(id));
    if (fragment) {
      const opening = /^([^,:]{1,64})[,:]/.exec(last)?.[1];
      if (opening !== undefined && moved(opening)) return last;
    } else if (moved(last)) return last;
  }
  return `${last} ${asked.at(-1)}`;
}

export function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user") return messageText(message);
  }
  return "";
}
