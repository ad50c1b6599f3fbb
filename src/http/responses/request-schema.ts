import { z } from "zod";
import { atMost, ChatCompletionRequest, JsonSchemaSpec, NoToolChoice, REQUEST_BOUNDS } from "../../core/chat-request.ts";

/**
 * The Responses API request (`POST /v1/responses`) as docent serves it: the
 * fields that mean something over a stateless, tool-free answer engine, built
 * from the chat request's own pieces. Fields that need stored state, or a tool
 * call demanded, are refused by name; other unknown fields are ignored, as in chat.
 */
const chat = ChatCompletionRequest.shape;
// The chat request's structural bounds: an over-long list is refused before its items are read.
const B = REQUEST_BOUNDS;

export const INPUT_ROLES = ["user", "system", "developer", "assistant"] as const;

const ContentPart = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("input_text"), text: z.string() }),
    z.object({ type: z.literal("output_text"), text: z.string() }),
    // An earlier reply's refusal, replayed as clients replay the output they got.
    z.object({ type: z.literal("refusal"), refusal: z.string() }),
  ],
  {
    error: (issue) =>
      issue.code === "invalid_union"
        ? "docent reads text only: a content part must be {type: 'input_text', text} ('output_text' or 'refusal' in an assistant message)"
        : undefined,
  },
);

export const InputMessage = z.object({
  // First, so an item of another kind is named for what it is rather than for a missing role.
  type: z
    .literal("message", {
      error: (issue) =>
        `docent takes only message items ({role, content}), not ${JSON.stringify(issue.input)?.slice(0, 64)}: it calls no tools and stores no responses.`,
    })
    .optional(),
  role: z.string().refine((r) => (INPUT_ROLES as readonly string[]).includes(r), {
    error: (issue) =>
      `Invalid role ${JSON.stringify(String(issue.input).slice(0, 64))}: only the roles 'user', 'system', 'developer' and 'assistant' are supported.`,
  }),
  content: z.union([z.string(), z.array(ContentPart).max(B.textParts, atMost(B.textParts, "text parts"))], {
    error: "must be a string or a list of {type: 'input_text', text} parts",
  }),
});
export type InputMessage = z.infer<typeof InputMessage>;

export const TextFormat = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("text") }),
    z.object({ type: z.literal("json_object") }),
    JsonSchemaSpec.extend({ type: z.literal("json_schema"), schema: z.record(z.string(), z.unknown()) }),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? "must be {type: 'text'}, {type: 'json_object'} or {type: 'json_schema', name, schema}" : undefined) },
);
export type TextFormat = z.infer<typeof TextFormat>;

/**
 * The tools an agent offers: coding agents on this API (Codex CLI, the Agents
 * SDK) send their own on every turn. With `tool_choice` `auto` the model may
 * always answer in text, and docent's does: the tools are read for their shape
 * and count only, and never reach the model (the response lists none).
 */
const OfferedTools = z
  .array(z.looseObject({ type: z.string().max(64) }), { error: "must be a list of tools" })
  .max(B.tools, atMost(B.tools, "tools"))
  .nullish();

const STATELESS = "docent stores no responses or conversations: send the whole conversation in 'input'";

export const ResponsesRequest = z.object({
  model: chat.model,
  input: z.union([z.string(), z.array(InputMessage).min(1, "must contain at least one message").max(B.messages, atMost(B.messages, "messages"))], {
    error: "must be a string or a list of {role, content} messages",
  }),
  instructions: z.string().nullish(),
  previous_response_id: z.null({ error: `${STATELESS} instead of 'previous_response_id'.` }).optional(),
  conversation: z.null({ error: `${STATELESS} instead of 'conversation'.` }).optional(),
  store: z.literal(false, { error: "docent stores no responses: 'store' must be false or omitted." }).nullish(),
  background: z.literal(false, { error: "docent stores no responses, so it cannot run one in the background." }).nullish(),
  prompt: z.null({ error: "docent keeps no prompt templates: send 'instructions' and 'input'." }).optional(),
  tools: OfferedTools,
  tool_choice: NoToolChoice,
  parallel_tool_calls: z.boolean().nullish(),
  stream: chat.stream,
  max_output_tokens: chat.max_completion_tokens,
  temperature: chat.temperature,
  top_p: chat.top_p,
  text: z.object({ format: TextFormat.nullish(), verbosity: z.enum(["low", "medium", "high"]).nullish() }).nullish(),
  top_logprobs: z.literal(0, { error: "logprobs are not available" }).nullish(),
  metadata: chat.metadata,
  user: chat.user,
  // docent's extensions, as in chat.
  sources: chat.sources,
  include_references: chat.include_references,
});
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;
