import type Anthropic from "@anthropic-ai/sdk";
import { isAbortError } from "../../core/errors.ts";
import type { FinishReason, LanguageModel, ModelCallOptions, ModelStreamPart, TokenUsage } from "../../core/language-model.ts";
import { mapProviderError, type ProviderLabel } from "../provider-error.ts";
import { toAnthropicPrompt } from "./map-messages.ts";
import { mapAnthropicStopReason } from "./map-stop-reason.ts";

export interface AnthropicModelOptions {
  client: Anthropic;
  label: ProviderLabel;
  /** Anthropic requires `max_tokens`; used when the caller gives none. */
  defaultMaxTokens?: number;
}

/** provider_b: the Anthropic Messages API through `@anthropic-ai/sdk`. */
/** Anthropic counts cache reads and writes apart from `input_tokens`; the prompt is all three (as OpenAI counts it). */
const promptUsage = (u: { input_tokens: number; cache_read_input_tokens?: number | null; cache_creation_input_tokens?: number | null }) => ({
  promptTokens: u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0),
  cachedTokens: u.cache_read_input_tokens ?? 0,
});

export function createAnthropicModel({ client, label, defaultMaxTokens = 4096 }: AnthropicModelOptions): LanguageModel {
  const body = (options: ModelCallOptions) => {
    const { system, messages } = toAnthropicPrompt(options.prompt);
    return {
      model: label.modelId,
      max_tokens: options.maxOutputTokens ?? defaultMaxTokens,
      system,
      messages,
      // Anthropic's temperature runs 0..1 (OpenAI's 0..2) and it takes one of temperature/top_p.
      ...(options.temperature !== undefined ? { temperature: Math.min(options.temperature, 1) } : options.topP !== undefined && { top_p: options.topP }),
      ...(options.stopSequences && { stop_sequences: options.stopSequences }),
      ...(options.user !== undefined && { metadata: { user_id: options.user } }),
      // Anthropic's structured outputs: the reply is constrained to the schema.
      ...(options.responseFormat && { output_config: { format: { type: "json_schema" as const, schema: options.responseFormat.schema } } }),
    };
  };

  return {
    provider: "anthropic",
    modelId: label.modelId,
    supportsStructuredOutput: true,
    async doGenerate(options) {
      try {
        const message = await client.messages.create({ ...body(options), stream: false }, { signal: options.abortSignal });
        const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
        return {
          text,
          finishReason: mapAnthropicStopReason(message.stop_reason),
          usage: { ...promptUsage(message.usage), completionTokens: message.usage.output_tokens },
        };
      } catch (error) {
        throw mapProviderError(error, label);
      }
    },
    async doStream(options) {
      let events: AsyncIterable<Anthropic.Messages.RawMessageStreamEvent>;
      try {
        events = await client.messages.create({ ...body(options), stream: true }, { signal: options.abortSignal });
      } catch (error) {
        throw mapProviderError(error, label);
      }
      async function* stream(): AsyncGenerator<ModelStreamPart> {
        const usage: Partial<TokenUsage> = {};
        let finishReason: FinishReason | undefined;
        let stopped = false;
        try {
          for await (const event of events) {
            if (event.type === "message_start") {
              Object.assign(usage, promptUsage(event.message.usage));
              usage.completionTokens = event.message.usage.output_tokens;
            } else if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
              if (event.delta.text) yield { type: "text-delta", delta: event.delta.text };
            } else if (event.type === "message_delta") {
              finishReason = mapAnthropicStopReason(event.delta.stop_reason);
              usage.completionTokens = event.usage.output_tokens;
            } else if (event.type === "message_stop") {
              stopped = true;
            }
          }
        } catch (error) {
          if (isAbortError(error)) throw error;
          yield { type: "error", error: mapProviderError(error, label) };
          return;
        }
        // Without message_stop the stream was cut: the relay reports it.
        if (stopped) yield { type: "finish", finishReason: finishReason ?? "stop", usage };
      }
      return { stream: stream() };
    },
  };
}
