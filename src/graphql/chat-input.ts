import type { ChatCompletionRequest } from "../core/chat-request.ts";
import { parseChatRequest } from "../core/validate-request.ts";

export interface ChatCompletionInputShape {
  model: string;
  messages: Array<{ role: string; content: string; name?: string | null }>;
  stream?: boolean | null;
  sources?: string[] | null;
  includeReferences?: boolean | null;
  responseFormat?: unknown;
  streamOptions?: { includeUsage?: boolean | null } | null;
  temperature?: number | null;
  topP?: number | null;
  maxTokens?: number | null;
  maxCompletionTokens?: number | null;
  n?: number | null;
  stop?: string[] | null;
  seed?: number | null;
  user?: string | null;
}

const omitNulls = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));

/** GraphQL's input, renamed to the REST body and validated by the very same schema. */
export function chatRequestFromInput(input: ChatCompletionInputShape): ChatCompletionRequest {
  return parseChatRequest(
    omitNulls({
      model: input.model,
      messages: input.messages.map((m) => omitNulls({ ...m })),
      stream: input.stream,
      sources: input.sources,
      include_references: input.includeReferences,
      response_format: input.responseFormat,
      stream_options: input.streamOptions ? omitNulls({ include_usage: input.streamOptions.includeUsage }) : undefined,
      temperature: input.temperature,
      top_p: input.topP,
      max_tokens: input.maxTokens,
      max_completion_tokens: input.maxCompletionTokens,
      n: input.n,
      stop: input.stop,
      seed: input.seed,
      user: input.user,
    }),
  );
}
