import { deadlineSignal } from "./deadline-signal.ts";
import type { GenerateResult, LanguageModel, ModelMessage } from "./language-model.ts";
import type { StructuredFormat } from "./structured-output.ts";

/**
 * A short question asked of the model before the answer (which sources to
 * search, how to restate the question): deterministic, small, JSON when the
 * model can, and bounded by its own time budget as well as the caller's
 * signal. Returns null when it failed or ran out of time, so the caller goes
 * on without it; an abort by the caller is thrown.
 */
export async function askSideQuestion(
  model: LanguageModel,
  prompt: ModelMessage[],
  { format, maxOutputTokens, timeoutMs, signal }: { format: StructuredFormat; maxOutputTokens: number; timeoutMs: number; signal?: AbortSignal },
): Promise<GenerateResult | null> {
  const deadline = deadlineSignal(timeoutMs, signal);
  try {
    return await model.doGenerate({
      prompt,
      documents: [],
      temperature: 0,
      maxOutputTokens,
      responseFormat: model.supportsStructuredOutput ? format : undefined,
      abortSignal: deadline.signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    return null;
  } finally {
    deadline.dispose();
  }
}

/** The JSON object in a model's reply (a model may wrap it in prose or a code fence); undefined when there is none. */
export function jsonObjectIn(text: string): unknown {
  try {
    return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
  } catch {
    return undefined;
  }
}
