import type { ChatMessage } from "./chat-request.ts";
import { messageText } from "./chat-request.ts";
import type { GroundingDocument, ModelMessage } from "./language-model.ts";
import type { StructuredFormat } from "./structured-output.ts";

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

function structuredInstructions(format: StructuredFormat): string {
  const schema = format.kind === "json_schema" ? `\nThe JSON must match this JSON Schema${format.description ? ` (${format.description})` : ""}:\n${JSON.stringify(format.schema)}` : "";
  return `\n\nReply with JSON only: no prose, no code fences. Ground every value in the excerpts; citations like [1] may go inside string values.${schema}`;
}

/** System instructions with the context, then the caller's own system messages and the conversation. */
export function buildPrompt(messages: readonly ChatMessage[], documents: readonly GroundingDocument[], format?: StructuredFormat | null): ModelMessage[] {
  const context = documents.length ? renderContext(documents) : "(none: the knowledge sources have nothing relevant to this question)";
  const system = `${INSTRUCTIONS}${format ? structuredInstructions(format) : ""}\n\nDocumentation excerpts:\n\n${context}`;
  return [
    { role: "system", content: system },
    ...messages.map((m) => ({ role: m.role as ModelMessage["role"], content: messageText(m) })),
  ];
}

/**
 * Prompt tokens as OpenAI counts a chat, for models that report none: each
 * message's content plus 3 tokens of framing, and 3 that prime the reply.
 */
export function countPromptTokens(prompt: readonly ModelMessage[], countTokens: (text: string) => number): number {
  return prompt.reduce((tokens, message) => tokens + countTokens(message.content) + 3, 3);
}
