import type { ChatCompletionRequest, ChatMessage, ResponseFormat } from "../../core/chat-request.ts";
import { DocentError } from "../../core/errors.ts";
import type { InputMessage, ResponsesRequest, TextFormat } from "./request-schema.ts";

/** The chat request a Responses request stands for, and how to name its parameters back. */
export interface MappedRequest {
  request: ChatCompletionRequest;
  /** The engine's refusals name chat parameters (`messages[1]`, `response_format`): this renames them. */
  inResponsesTerms(error: DocentError): DocentError;
}

const textOf = (content: InputMessage["content"]) =>
  typeof content === "string" ? content : content.map((part) => (part.type === "refusal" ? part.refusal : part.text)).join("");

function responseFormat(format: TextFormat | null | undefined): ResponseFormat | undefined {
  if (!format) return undefined;
  if (format.type !== "json_schema") return format;
  const { name, description, schema, strict } = format;
  return { type: "json_schema", json_schema: { name, description, schema, strict } };
}

/**
 * `instructions` becomes a leading system message, `developer` is `system`,
 * content parts are joined to text; the rest maps one to one.
 */
export function toChatRequest(r: ResponsesRequest): MappedRequest {
  const lead: ChatMessage[] = r.instructions ? [{ role: "system", content: r.instructions }] : [];
  const items: ChatMessage[] =
    typeof r.input === "string"
      ? [{ role: "user", content: r.input }]
      : r.input.map((m) => ({ role: m.role === "developer" ? "system" : m.role, content: textOf(m.content) }));
  const request: ChatCompletionRequest = {
    model: r.model,
    messages: [...lead, ...items],
    stream: r.stream,
    sources: r.sources,
    include_references: r.include_references,
    response_format: responseFormat(r.text?.format),
    temperature: r.temperature,
    top_p: r.top_p,
    max_completion_tokens: r.max_output_tokens,
    metadata: r.metadata,
    user: r.user,
  };

  const renameParam = (param: string): string => {
    const message = /^messages\[(\d+)\](.*)$/.exec(param);
    if (message) {
      const index = Number(message[1]) - lead.length;
      if (index < 0) return "instructions";
      return typeof r.input === "string" ? "input" : `input[${index}]${message[2]}`;
    }
    if (param === "messages") return "input";
    if (param.startsWith("response_format")) return "text.format";
    if (param === "max_completion_tokens" || param === "max_tokens") return "max_output_tokens";
    return param;
  };
  return {
    request,
    inResponsesTerms(error) {
      const param = error.param === null ? null : renameParam(error.param);
      const message = error.message
        .replaceAll("response_format.json_schema.schema", "text.format.schema")
        .replaceAll("response_format", "text.format")
        .replaceAll("'messages'", "'input'")
        .replace(/\bmax_(?:completion_)?tokens\b/g, "max_output_tokens")
        // Each message the error names, by its place in `input` (or as `instructions`), as `param` does.
        .replace(/\bmessages\[\d+\](?:\.[A-Za-z_]\w*|\[\d+\])*/g, (name) => renameParam(name));
      if (param === error.param && message === error.message) return error;
      return new DocentError(error.code, message, { param, reason: error.reason, retryable: error.retryable, retryAfter: error.retryAfter, cause: error });
    },
  };
}
