import type { TokenUsage } from "./language-model.ts";

/** Usage as the provider reported it, counted with the tokenizer where it reported none. */
export function settleUsage(reported: Partial<TokenUsage> | undefined, count: { prompt: () => number; completion: () => number }): TokenUsage {
  return {
    promptTokens: reported?.promptTokens ?? count.prompt(),
    completionTokens: reported?.completionTokens ?? count.completion(),
    reasoningTokens: reported?.reasoningTokens ?? 0,
    cachedTokens: reported?.cachedTokens ?? 0,
  };
}
