import type { FinishReason, LanguageModel, ModelCallOptions, ModelStreamPart } from "../../core/language-model.ts";
import type { TextAnalyzer } from "../../core/text-analyzer.ts";
import { extractiveAnswer } from "./extractive-answer.ts";

export interface ExtractiveModelOptions {
  /** Counts tokens, to honour `maxOutputTokens`. */
  countTokens: (text: string) => number;
  /** How questions and passages are read (default: the English analyzer the index uses). */
  analyzer?: TextAnalyzer;
}

const lastUser = (options: ModelCallOptions) => [...options.prompt].reverse().find((m) => m.role === "user")?.content ?? "";

/** Cuts text to at most `max` tokens on a word boundary. */
function truncate(text: string, max: number | undefined, countTokens: (t: string) => number): { text: string; finishReason: FinishReason } {
  if (max === undefined || countTokens(text) <= max) return { text, finishReason: "stop" };
  const words = text.split(/(?<=\s)/);
  let out = "";
  for (const word of words) {
    if (countTokens(out + word) > max) break;
    out += word;
  }
  return { text: out.trimEnd(), finishReason: "length" };
}

/**
 * The offline generator: answers with sentences taken from the retrieved
 * passages. Deterministic, so streamed and collected replies are identical.
 */
export function createExtractiveModel({ countTokens, analyzer }: ExtractiveModelOptions): LanguageModel {
  const answer = (options: ModelCallOptions) => {
    const text =
      extractiveAnswer(lastUser(options), options.documents, { analyzer }) || "The retrieved documentation has no passage that answers this directly.";
    return truncate(text, options.maxOutputTokens, countTokens);
  };
  return {
    provider: "extractive",
    modelId: "docent-extractive-1",
    // It quotes passages; it cannot write JSON to a schema, and will not pretend to.
    supportsStructuredOutput: false,
    async doGenerate(options) {
      options.abortSignal?.throwIfAborted();
      return answer(options);
    },
    async doStream(options) {
      options.abortSignal?.throwIfAborted();
      const { text, finishReason } = answer(options);
      async function* stream(): AsyncGenerator<ModelStreamPart> {
        for (const piece of text.match(/\S+\s*/g) ?? []) {
          options.abortSignal?.throwIfAborted();
          yield { type: "text-delta", delta: piece };
        }
        yield { type: "finish", finishReason };
      }
      return { stream: stream() };
    },
  };
}
