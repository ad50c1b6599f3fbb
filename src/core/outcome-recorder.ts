import type { ChatPart, OpenedCompletion } from "./chat-part.ts";
import type { CompletionMeta } from "./completion-object.ts";
import type { CompletionOutcome, RequestTrace } from "./completion-outcome.ts";
import { toDocentError } from "./errors.ts";
import type { FinishReason, TokenUsage } from "./language-model.ts";

const NO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 };

/**
 * Follows one completion's parts and reports its outcome to the request's
 * trace exactly once: at the finish or error part (before it is passed on),
 * or when the caller stops reading.
 */
export function createOutcomeRecorder(
  trace: RequestTrace,
  {
    opened,
    meta,
    question,
    startedAt,
    openMs,
    now = Date.now,
  }: { opened: OpenedCompletion; meta: CompletionMeta; question: string; startedAt: number; openMs: number; now?: () => number },
) {
  let answer = "";
  let references = opened.references;
  let firstTokenMs: number | null = null;
  let finishReason: FinishReason | null = null;
  let usage = NO_USAGE;
  let modelRefusal = false;
  let reported: Promise<void> | undefined;
  trace.begin?.();

  /**
   * What the refusal was decided on, and whether the reply refused: a model that answered from sources it was given
   * but cited none of them, having declined or said nothing, refused as surely as the coverage judge would have.
   */
  function groundingOf(status: CompletionOutcome["status"]) {
    const grounding = opened.grounding ?? null;
    if (grounding && modelRefusal && !grounding.refused) return { ...grounding, refused: true, byModel: true, modelRefusal: true };
    const declined = grounding !== null && !grounding.refused && status === "completed" && opened.sources.length > 0 && references.length === 0;
    return declined ? { ...grounding, refused: true, byModel: true } : grounding;
  }

  function end(status: CompletionOutcome["status"], error: unknown = null): Promise<void> {
    if (reported) return reported;
    const failure = error === null ? null : toDocentError(error);
    const outcome: CompletionOutcome = {
      requestId: trace.requestId,
      interface: trace.interface,
      keyId: trace.keyId,
      completionId: meta.id,
      created: meta.created,
      model: opened.model,
      provider: opened.provider,
      modelId: opened.modelId,
      sourceIds: opened.sources.map((s) => s.id),
      references,
      grounding: groundingOf(status),
      status,
      finishReason,
      usage,
      error: failure && { code: failure.code, message: failure.message },
      question,
      answer,
      timings: { startedAt, openMs, firstTokenMs, totalMs: now() - startedAt },
    };
    // The trace reports its observers' failures itself: a completion never fails for its bookkeeping.
    reported = trace.complete(outcome).catch(() => {});
    return reported;
  }

  return {
    end,
    /** Notes a part; resolves once an ending part has been reported. */
    async observe(part: ChatPart): Promise<void> {
      // A model's refusal is what it answered.
      if (part.type === "text-delta" || part.type === "refusal-delta") {
        firstTokenMs ??= now() - startedAt;
        if (part.type === "refusal-delta") modelRefusal = true;
        answer += part.delta;
      } else if (part.type === "references") references = part.references;
      else if (part.type === "finish") {
        finishReason = part.finishReason;
        usage = { ...NO_USAGE, ...part.usage };
        await end("completed");
      } else await end("failed", part.error);
    },
  };
}

export type OutcomeRecorder = ReturnType<typeof createOutcomeRecorder>;
