import type { ChatPart } from "./chat-part.ts";
import { DocentError, isAbortError, toDocentError } from "./errors.ts";
import type { FinishReason, LanguageModel, ModelCallOptions, ModelMessage, ModelStreamPart, TokenUsage } from "./language-model.ts";
import { countPromptTokens } from "./prompt.ts";
import { createReplyReader } from "./reply-reader.ts";
import { settleUsage } from "./settle-usage.ts";
import { checkStructuredReply, type SchemaValidator, type StructuredFormat } from "./structured-output.ts";

interface Attempt {
  deltas: string[];
  text: string;
  /** The model declined (OpenAI's `refusal`): no JSON to check, and none to repair. */
  refusal: string[];
  finishReason: FinishReason;
  usage: TokenUsage;
}

async function collect(stream: AsyncIterable<ModelStreamPart>, prompt: readonly ModelMessage[], countTokens: (t: string) => number): Promise<Attempt> {
  const deltas: string[] = [];
  const refusal: string[] = [];
  let finish: Extract<ModelStreamPart, { type: "finish" }> | undefined;
  for await (const part of stream) {
    if (part.type === "text-delta") deltas.push(part.delta);
    else if (part.type === "refusal-delta") refusal.push(part.delta);
    else if (part.type === "finish") finish = part;
    else throw part.error;
  }
  const text = deltas.join("");
  if (!finish) throw new DocentError("BAD_GATEWAY", "The model's stream ended before the reply was complete.", { retryable: true });
  return {
    deltas,
    text,
    refusal,
    finishReason: finish.finishReason,
    usage: settleUsage(finish.usage, { prompt: () => countPromptTokens(prompt, countTokens), completion: () => countTokens(text + refusal.join("")) }),
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
    // A refusal has no JSON to check (nor to repair).
    const check = async (a: Attempt) =>
      a.refusal.length > 0 ? [] : await checkStructuredReply(a.text, format, validator, { caller, signal: call.abortSignal });
    let attempt = await collect(first, call.prompt, countTokens);
    const usage = { ...attempt.usage };
    let problems = await check(attempt);
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
      problems = await check(attempt);
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
    if (attempt.refusal.length > 0) {
      // Declined (at first or when asked to repair): said as a refusal, OpenAI's structured-output contract, drawing on no page.
      yield { type: "references", references: [] };
      // Read as a text reply is (the same escapes), among no references.
      const reader = createReplyReader(0);
      for (const out of [...attempt.refusal.map((delta) => reader.push(delta).out), reader.flush()]) if (out) yield { type: "refusal-delta", delta: out };
    } else for (const delta of attempt.deltas) if (delta) yield { type: "text-delta", delta };
    yield { type: "finish", finishReason: attempt.finishReason, usage };
  } catch (error) {
    if (isAbortError(error)) return;
    yield { type: "error", error: toDocentError(error) };
  }
}
