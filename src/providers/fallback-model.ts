import { DocentError } from "../core/errors.ts";
import type { LanguageModel } from "../core/language-model.ts";

/**
 * The agent with AGENT_FALLBACK: when its provider fails before the first
 * token with a retryable error (after its own retries), the other provider
 * answers the same call. Errors the caller caused (a bad request, an abort)
 * and failures after the first token are not handed over.
 */
export function withFallback(primary: LanguageModel, fallback: LanguageModel): LanguageModel {
  async function either<T>(call: (model: LanguageModel) => Promise<T>, signal: AbortSignal | undefined): Promise<{ result: T; model: LanguageModel }> {
    try {
      return { result: await call(primary), model: primary };
    } catch (error) {
      if (signal?.aborted || !(error instanceof DocentError) || !error.retryable) throw error;
      return { result: await call(fallback), model: fallback };
    }
  }
  return {
    provider: primary.provider,
    modelId: primary.modelId,
    supportsStructuredOutput: primary.supportsStructuredOutput && fallback.supportsStructuredOutput,
    async doGenerate(options) {
      return (await either((model) => model.doGenerate(options), options.abortSignal)).result;
    },
    async doStream(options) {
      const { result, model } = await either((m) => m.doStream(options), options.abortSignal);
      return model === primary ? result : { ...result, answeredBy: { provider: model.provider, modelId: model.modelId } };
    },
  };
}
