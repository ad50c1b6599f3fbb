import type { ChatMessage } from "./chat-request.ts";
import { messageText } from "./chat-request.ts";
import type { GroundingDocument, ModelMessage } from "./language-model.ts";

const INSTRUCTIONS = `You are docent, an assistant that answers questions using only the documentation excerpts below.
Cite the excerpts you use with their bracketed number, like [1] or [2], right after the statement they support.
If the excerpts do not contain the answer, say that the knowledge sources do not cover the question. Do not invent facts, URLs or options.
Answer concisely, in the language of the question.`;

export function renderContext(documents: readonly GroundingDocument[]): string {
  return documents
    .map((doc) => {
      const heading = [doc.title, doc.section].filter(Boolean).join(" › ");
      return `[${doc.referenceNumber}] ${heading} (${doc.url})\n${doc.text}`;
    })
    .join("\n\n");
}

/** System instructions with the context, then the caller's own system messages and the conversation. */
export function buildPrompt(messages: readonly ChatMessage[], documents: readonly GroundingDocument[]): ModelMessage[] {
  const system = `${INSTRUCTIONS}\n\nDocumentation excerpts:\n\n${renderContext(documents)}`;
  return [
    { role: "system", content: system },
    ...messages.map((m) => ({ role: m.role as ModelMessage["role"], content: messageText(m) })),
  ];
}
