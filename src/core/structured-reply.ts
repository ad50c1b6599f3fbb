import type { ChatPart } from "./chat-part.ts";
import { DocentError, isAbortError, toDocentError } from "./errors.ts";
import type { FinishReason, LanguageModel, ModelCallOptions, ModelMessage, ModelStreamPart, TokenUsage } from "./language-model.ts";
import { countPromptTokens } from "./prompt.ts";
import { settleUsage } from "./settle-usage.ts";
import { checkStructuredReply, type SchemaValidator, type StructuredFormat } from "./structured-output.ts";

interface Attempt {
  deltas: string[];
  text: string;
  finishReason: FinishReason;
  usage: TokenUsage;
}

async function collect(stream: AsyncIterable<ModelStreamPart>, prompt: readonly ModelMessage[], countTokens: (t: string) => number): Promise<Attempt> {
  const deltas: string[] = [];
  let finish: Extract<ModelStreamPart, { type: "finish" }> | undefined;
  for await (const part of stream) {
    if (part.type === "text-delta") deltas.push(part.delta);
    else if (part.type === "finish") finish = part;
    else throw part.error;
  }
  const text = deltas.join("");
  if (!finish) throw new DocentError("BAD_GATEWAY", "The model's stream ended before the reply was complete.", { retryable: true });
  return {
    deltas,
    text,
    finishReason: finish.finishReason,
    usage: settleUsage(finish.usage, { prompt: () => countPromptTokens(prompt, countTokens), completion: () => countTokens(text) }),
  };
}

/**
 * A structured reply: the model's JSON is collected and validated before any
 * of it is sent, repaired once if it does not conform, and then streamed as
 * the model's own deltas — so streamed and collected content are the same
 * valid JSON, and invalid JSON is never presented as success.
 */
export async function* structuredReply(
  first: AsyncIterable<ModelStreamPart>,
  {
    model,
    call,
    format,
    validator,
    countTokens,
    caller = null,
  }: {
    model: LanguageModel;
    call: ModelCallOptions;
    format: StructuredFormat;
    validator: SchemaValidator;
    countTokens: (t: string) => number;
    caller?: string | null;
  },
): AsyncGenerator<ChatPart> {
  try {
    let attempt = await collect(first, call.prompt, countTokens);
    let problems = await checkStructuredReply(attempt.text, format, validator, { caller, signal: call.abortSignal });
    const usage = { ...attempt.usage };
    if (problems.length > 0) {
      const repair: ModelCallOptions = {
        ...call,
        prompt: [
          ...call.prompt,
          { role: "assistant", content: attempt.text },
          {
            role: "user",
            content: `That reply does not match the required JSON schema: ${problems.slice(0, 8).join("; ")}. Reply again with only the corrected JSON.`,
          },
        ],
      };
      const { stream } = await model.doStream(repair);
      attempt = await collect(stream, repair.prompt, countTokens);
      usage.promptTokens += attempt.usage.promptTokens;
      usage.completionTokens += attempt.usage.completionTokens;
      usage.reasoningTokens += attempt.usage.reasoningTokens;
      usage.cachedTokens = (usage.cachedTokens ?? 0) + (attempt.usage.cachedTokens ?? 0);
      problems = await checkStructuredReply(attempt.text, format, validator, { caller, signal: call.abortSignal });
      if (problems.length > 0) {
        yield {
          type: "error",
          error: new DocentError(
            "BAD_GATEWAY",
            `${model.provider}/${model.modelId} did not produce JSON matching the response_format schema, even after one repair: ${problems.slice(0, 5).join("; ")}`,
            {
              reason: "invalid_structured_output",
            },
          ),
        };
        return;
      }
    }
    for (const delta of attempt.deltas) if (delta) yield { type: "text-delta", delta };
    yield { type: "finish", finishReason: attempt.finishReason, usage };
  } catch (error) {
    if (isAbortError(error)) return;
    yield { type: "error", error: toDocentError(error) };
  }
}
