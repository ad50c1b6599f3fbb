import { type ChatMessage, messageText } from "./chat-request.ts";
import { contentTerms, type TextAnalyzer } from "./text-analyzer.ts";

/**
 * The text to retrieve with. The last user message leads; a short follow-up
 * ("and how do I drop it?") borrows the previous user turn so the subject
 * carries over.
 */
export function retrievalQuery(messages: readonly ChatMessage[], analyzer: TextAnalyzer): string {
  const userTurns = messages
    .filter((m) => m.role === "user")
    .map((m) => messageText(m).trim())
    .filter(Boolean);
  const last = userTurns.at(-1) ?? "";
  if (userTurns.length < 2) return last;
  // Only whether it has more than three terms matters: a long message is not read to its end.
  const lastTerms = contentTerms(analyzer, last, 4);
  const followUp = lastTerms.length <= 3 || /^(and|what about|how about|also|then)\b/i.test(last) || /\b(it|its|this|that|them|those|these)\b/i.test(last);
  if (!followUp) return last;
  const previous = userTurns.at(-2) ?? "";
  return `${last} ${previous}`;
}

export function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user") return messageText(message);
  }
  return "";
}
