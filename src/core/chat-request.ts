import { z } from "zod";

/**
 * The chat-completions request, as SPEC.md's table describes it plus the
 * common OpenAI fields. REST, GraphQL and tRPC all validate with this schema.
 * Unknown fields are ignored, as most OpenAI-compatible servers do.
 */
export const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const SUPPORTED_ROLES = ["user", "system", "assistant"] as const;

/**
 * Structural bounds on what a caller sends, so validation itself costs
 * little. The size of the conversation (messages, characters) is limited by
 * configuration instead: src/core/input-limits.ts, checked by the engine.
 */
export const REQUEST_BOUNDS = {
  /** Messages read at all; MAX_MESSAGES (at most this) is the limit in force. */
  messages: 2048,
  textParts: 256,
  sources: 256,
  model: 256,
  name: 256,
  stopSequence: 256,
  user: 256,
  /** OpenAI's own bounds for metadata: 16 pairs, keys up to 64 characters, values up to 512. */
  metadataPairs: 16,
  metadataKey: 64,
  metadataValue: 512,
  schemaDescription: 4096,
  /** OpenAI's own bound on the tools one request may offer. */
  tools: 128,
} as const;
const B = REQUEST_BOUNDS;
/** The message for a list or string over one of these bounds. */
export const atMost = (n: number, what: string) => `must hold at most ${n} ${what}`;

const TextPart = z.object({ type: z.literal("text"), text: z.string() });
/** An earlier reply's refusal, sent back as clients send the message they got. */
const RefusalPart = z.object({ type: z.literal("refusal"), refusal: z.string() });

export const ChatMessage = z.object({
  role: z.string().refine((r) => (SUPPORTED_ROLES as readonly string[]).includes(r), {
    error: (issue) => `Invalid role ${JSON.stringify(String(issue.input).slice(0, 64))}: only the roles 'user', 'system' and 'assistant' are supported.`,
  }),
  content: z.union([z.string(), z.array(z.discriminatedUnion("type", [TextPart, RefusalPart])).max(B.textParts, atMost(B.textParts, "text parts")), z.null()]),
  name: z.string().max(B.name, atMost(B.name, "characters")).optional(),
  /** An earlier reply's refusal (its content then null), as OpenAI's SDKs send a message back. */
  refusal: z.string().nullish(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** A named JSON Schema to answer in; the Responses API's `text.format` takes the same fields, flat. */
export const JsonSchemaSpec = z.object({
  name: z
    .string()
    .max(64, "must be 1-64 letters, digits, '_' or '-'")
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, '_' or '-'"),
  description: z.string().max(B.schemaDescription, atMost(B.schemaDescription, "characters")).optional(),
  schema: z.record(z.string(), z.unknown()).optional(),
  strict: z.boolean().nullish(),
});

export const ResponseFormat = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({ type: z.literal("json_schema"), json_schema: JsonSchemaSpec }),
]);
export type ResponseFormat = z.infer<typeof ResponseFormat>;

const StopSequence = z.string().max(B.stopSequence, atMost(B.stopSequence, "characters"));
const Stop = z.union([StopSequence, z.array(StopSequence).max(4)]).nullish();

/**
 * docent answers from its knowledge sources and calls no functions: a caller
 * that offers tools, or demands a call, is told so rather than answered as if
 * it had not asked (an empty list, `none` and `auto` are what it does anyway).
 */
export const NoTools = z.array(z.unknown()).max(0, "docent answers from its knowledge sources and calls no tools: it must be empty or omitted.").nullish();
export const NoToolChoice = z.enum(["none", "auto"], { error: "docent calls no tools: it may only be 'none' or 'auto'." }).nullish();
/** Chat parameters refused as unsupported (OpenAI's `unsupported_parameter`) rather than invalid. */
export const UNSUPPORTED_CHAT_PARAMETERS = new Set(["tools", "tool_choice", "functions", "function_call"]);

export const ChatCompletionRequest = z.object({
  model: z.string().min(1, "must name a model: 'agent', 'provider_a' or 'provider_b'").max(B.model, atMost(B.model, "characters")),
  messages: z.array(ChatMessage).min(1, "must contain at least one message").max(B.messages, atMost(B.messages, "messages")),
  stream: z.boolean().nullish(),
  sources: z
    .array(z.string().max(36, "must be a knowledge-source UUID").regex(UUID_SHAPE, "must be a knowledge-source UUID"))
    .max(B.sources, atMost(B.sources, "knowledge-source ids"))
    .nullish(),
  include_references: z.boolean().nullish(),
  response_format: ResponseFormat.nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  n: z.literal(1, { error: "only n = 1 is supported" }).nullish(),
  stop: Stop,
  seed: z.number().int().nullish(),
  user: z.string().max(B.user, atMost(B.user, "characters")).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  logprobs: z.literal(false, { error: "logprobs are not available" }).nullish(),
  tools: NoTools,
  tool_choice: NoToolChoice,
  // Their deprecated forms, which SDKs still send.
  functions: NoTools,
  function_call: NoToolChoice,
  metadata: z
    .record(
      z.string().max(B.metadataKey, `keys ${atMost(B.metadataKey, "characters")}`),
      z.string().max(B.metadataValue, `values ${atMost(B.metadataValue, "characters")}`),
    )
    .refine((m) => Object.keys(m).length <= B.metadataPairs, atMost(B.metadataPairs, "key-value pairs"))
    .nullish(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

/** Text of a message, whether given as a string or as parts; an earlier reply's refusal is what it said. */
export function messageText(message: Pick<ChatMessage, "content" | "refusal">): string {
  const { content } = message;
  const text = content == null ? "" : typeof content === "string" ? content : content.map((part) => (part.type === "text" ? part.text : part.refusal)).join("");
  return text || (message.refusal ?? "");
}
