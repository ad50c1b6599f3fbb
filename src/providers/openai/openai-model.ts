import type OpenAI from "openai";
import { isAbortError } from "../../core/errors.ts";
import type { FinishReason, LanguageModel, ModelCallOptions, ModelStreamPart, TokenUsage } from "../../core/language-model.ts";
import { mapProviderError, type ProviderLabel } from "../provider-error.ts";
import { openChatStream } from "./chat-stream.ts";
import { mapOpenAIFinishReason } from "./map-finish-reason.ts";
import { toOpenAIResponseFormat } from "./map-response-format.ts";

export interface OpenAIModelOptions {
  client: OpenAI;
  label: ProviderLabel;
  /** OpenAI's own API wants `max_completion_tokens`; many compatible servers only know `max_tokens`. */
  maxTokensField: "max_completion_tokens" | "max_tokens";
}

type Usage =
  | {
      prompt_tokens: number;
      completion_tokens: number;
      completion_tokens_details?: { reasoning_tokens?: number } | null;
      prompt_tokens_details?: { cached_tokens?: number } | null;
    }
  | null
  | undefined;

const toUsage = (usage: Usage): Partial<TokenUsage> | undefined =>
  usage
    ? {
        promptTokens: usage.prompt_tokens,
        completionTokens: usage.completion_tokens,
        reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
        cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
      }
    : undefined;

/** provider_a: any OpenAI-compatible Chat Completions endpoint through the `openai` SDK. */
export function createOpenAIModel({ client, label, maxTokensField }: OpenAIModelOptions): LanguageModel {
  const body = (options: ModelCallOptions) => ({
    model: label.modelId,
    messages: options.prompt.map((m) => ({ role: m.role, content: m.content })),
    ...(options.temperature !== undefined && { temperature: options.temperature }),
    ...(options.topP !== undefined && { top_p: options.topP }),
    ...(options.maxOutputTokens !== undefined && { [maxTokensField]: options.maxOutputTokens }),
    ...(options.stopSequences && { stop: options.stopSequences }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.user !== undefined && { user: options.user }),
    ...(options.responseFormat && { response_format: toOpenAIResponseFormat(options.responseFormat) }),
  });

  return {
    provider: "openai",
    modelId: label.modelId,
    supportsStructuredOutput: true,
    async doGenerate(options) {
      try {
        const response = await client.chat.completions.create({ ...body(options), stream: false }, { signal: options.abortSignal });
        const choice = response.choices[0];
        const finishReason = mapOpenAIFinishReason(choice?.finish_reason);
        // A refusal is said in its own field, and kept there: callers tell it from an answer.
        const refusal = choice?.message.refusal;
        if (refusal) return { text: "", refusal, finishReason, usage: toUsage(response.usage) };
        return { text: choice?.message.content ?? "", finishReason, usage: toUsage(response.usage) };
      } catch (error) {
        throw mapProviderError(error, label);
      }
    },
    async doStream(options) {
      let response: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
      try {
        // The SDK's wire format over node:http (chat-stream.ts): the SDK's streaming costs more than the rest of a request.
        response = await openChatStream(client, { ...body(options), stream: true, stream_options: { include_usage: true } }, options.abortSignal);
      } catch (error) {
        throw mapProviderError(error, label);
      }
      async function* stream(): AsyncGenerator<ModelStreamPart> {
        let finishReason: FinishReason | undefined;
        let usage: Partial<TokenUsage> | undefined;
        try {
          for await (const chunk of response) {
            const choice = chunk.choices?.[0];
            const delta = choice?.delta?.content;
            if (delta) yield { type: "text-delta", delta };
            // A refusal streams in its own field, and is passed on as one (chat's `refusal`, the Responses API's refusal part).
            const refusal = choice?.delta?.refusal;
            if (refusal) yield { type: "refusal-delta", delta: refusal };
            if (choice?.finish_reason) finishReason = mapOpenAIFinishReason(choice.finish_reason);
            if (chunk.usage) usage = toUsage(chunk.usage);
          }
        } catch (error) {
          if (isAbortError(error)) throw error;
          yield { type: "error", error: mapProviderError(error, label) };
          return;
        }
        // A stream that closes without a finish reason was cut: the relay reports it.
        if (finishReason) yield { type: "finish", finishReason, usage };
      }
      return { stream: stream() };
    },
  };
}
