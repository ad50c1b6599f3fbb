import type { ChatCompletionRequest } from "./chat-request.ts";
import { badRequest } from "./errors.ts";

/**
 * How much a caller may ask at once, checked before any work is done.
 * Characters are JavaScript string length (UTF-16 code units).
 */
export interface InputLimits {
  /** Messages in one request (MAX_MESSAGES). */
  maxMessages: number;
  /** Characters of one message's text (MAX_MESSAGE_CHARS). */
  maxMessageChars: number;
  /** Characters of all messages together (MAX_INPUT_CHARS). */
  maxInputChars: number;
}

/**
 * Far above a real docs question: 100,000 characters is a question with some
 * 1,500 lines of pasted log (about 25,000 tokens); 400,000 in all (about
 * 100,000 tokens) fits the context window of every model docent drives;
 * 1,000 messages is a conversation of 500 turns.
 */
export const DEFAULT_INPUT_LIMITS: InputLimits = { maxMessages: 1000, maxMessageChars: 100_000, maxInputChars: 400_000 };

/**
 * A caller's JSON Schema is compiled to code by the validator, at about 4 µs a
 * character of schema: 16 KB (some 500 properties) compiles in under 60 ms.
 * Depth counts JSON nesting: 32 is about 15 levels of nested objects.
 */
export const MAX_SCHEMA_CHARS = 16_384;
export const MAX_SCHEMA_DEPTH = 32;

const count = (n: number) => n.toLocaleString("en-US");

function textLength({ content, refusal }: ChatCompletionRequest["messages"][number]): number {
  let length = refusal?.length ?? 0;
  if (typeof content === "string") length += content.length;
  else for (const part of content ?? []) length += part.type === "text" ? part.text.length : part.refusal.length;
  return length;
}

/** Refuses a request over the limits with a BAD_REQUEST naming the parameter. */
export function checkInputLimits(request: ChatCompletionRequest, limits: InputLimits): void {
  const { messages } = request;
  if (messages.length > limits.maxMessages) {
    throw badRequest(
      `Invalid 'messages': ${count(messages.length)} messages; at most ${count(limits.maxMessages)} are accepted (MAX_MESSAGES).`,
      "messages",
      "array_above_max_length",
    );
  }
  let total = 0;
  messages.forEach((message, i) => {
    const length = textLength(message);
    if (length > limits.maxMessageChars) {
      throw badRequest(
        `Invalid 'messages[${i}].content': ${count(length)} characters; a message may hold at most ${count(limits.maxMessageChars)} (MAX_MESSAGE_CHARS).`,
        `messages[${i}].content`,
        "string_above_max_length",
      );
    }
    total += length;
  });
  if (total > limits.maxInputChars) {
    throw badRequest(
      `The messages hold ${count(total)} characters in all; at most ${count(limits.maxInputChars)} are accepted (MAX_INPUT_CHARS). Shorten the conversation.`,
      "messages",
      "context_length_exceeded",
    );
  }
  const format = request.response_format;
  if (format?.type === "json_schema" && format.json_schema.schema) {
    const problem = schemaShapeProblem(format.json_schema.schema);
    if (problem) throw badRequest(`response_format.json_schema.schema is too large: ${problem}.`, "response_format", "schema_too_large");
  }
}

/** Why a schema is too large or too deep, walked without recursion (a caller's value may nest without end). */
export function schemaShapeProblem(schema: unknown): string | null {
  // Characters as JSON.stringify would write them, near enough: a limit, not an accounting.
  let chars = 0;
  const tooLong = `it is longer than ${count(MAX_SCHEMA_CHARS)} characters as JSON`;
  const stack: Array<[unknown, number]> = [[schema, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === "string") chars += value.length + 3;
    else if (value === null || typeof value !== "object") chars += String(value).length + 1;
    else {
      if (depth > MAX_SCHEMA_DEPTH) return `it nests more than ${MAX_SCHEMA_DEPTH} levels deep`;
      // Brackets and a separator per entry, counted before the entries are visited.
      chars += 2 + (Array.isArray(value) ? value.length : Object.keys(value).length);
      if (chars > MAX_SCHEMA_CHARS) return tooLong;
      const entries = Array.isArray(value) ? value.map((item) => ["", item] as const) : Object.entries(value);
      for (const [key, item] of entries) {
        if (key) chars += key.length + 3;
        stack.push([item, depth + 1]);
      }
    }
    if (chars > MAX_SCHEMA_CHARS) return tooLong;
  }
  return null;
}
