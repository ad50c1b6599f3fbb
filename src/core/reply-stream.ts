import type { ChatPart } from "./chat-part.ts";
import { DocentError, isAbortError, toDocentError } from "./errors.ts";
import type { LanguageModel, ModelStreamPart, TokenUsage } from "./language-model.ts";
import { NOT_COVERED_SENTENCE } from "./prompt.ts";
import { type Grounding, type Reference, referencesBlock } from "./references.ts";
import { createReplyReader } from "./reply-reader.ts";
import { settleUsage } from "./settle-usage.ts";

/** Adds what earlier provider calls for the same request cost (the agent's source choice) to the reply's usage. */
export async function* withExtraUsage(parts: AsyncIterable<ChatPart>, extra: TokenUsage): AsyncGenerator<ChatPart> {
  for await (const part of parts) {
    if (part.type !== "finish") yield part;
    else
      yield {
        ...part,
        usage: {
          promptTokens: part.usage.promptTokens + extra.promptTokens,
          completionTokens: part.usage.completionTokens + extra.completionTokens,
          reasoningTokens: part.usage.reasoningTokens + extra.reasoningTokens,
          cachedTokens: (part.usage.cachedTokens ?? 0) + (extra.cachedTokens ?? 0),
        },
      };
  }
}

/** A reply that needs no model: the sources do not cover the question. */
export async function* fixedReply(text: string, promptTokens: number, completionTokens: number): AsyncGenerator<ChatPart> {
  yield { type: "text-delta", delta: text };
  yield { type: "finish", finishReason: "stop", usage: { promptTokens, completionTokens, reasoningTokens: 0 } };
}

/**
 * Passes the model's deltas through as reply-reader.ts reads them, with citation markers renumbered in
 * order of first use, keeps the references in that order (the sections the
 * reply cites; when it cites none, one per page given), appends the
 * references block when asked, and settles usage.
 */
export async function* relay(
  stream: AsyncIterable<ModelStreamPart>,
  model: LanguageModel,
  promptTokens: () => number,
  countTokens: (text: string) => number,
  grounding: Pick<Grounding, "references" | "pages">,
  includeReferences: boolean,
): AsyncGenerator<ChatPart> {
  let text = "";
  let refusal = "";
  let finish: Extract<ModelStreamPart, { type: "finish" }> | undefined;
  const reader = createReplyReader(grounding.references.length);
  const citations = reader.citations;
  // A reply is its text or a refusal, as OpenAI's are: whichever the model begins with, the rest is read as.
  const refusalReader = createReplyReader(0);
  let kind: "text" | "refusal" | null = null;
  // While the reply runs: the sections it has cited so far (the opened completion's references are none),
  // so every list a stream shows is the start of the final one.
  let last: readonly Reference[] = [];
  const cited = () => citations.order.map((n) => grounding.references[n - 1]!);
  function* emit(out: string): Generator<ChatPart> {
    if (citations.order.length !== last.length) yield { type: "references", references: (last = cited()) };
    if (out) yield { type: kind === "refusal" ? "refusal-delta" : "text-delta", delta: out };
  }
  /** Cut short or ended, the reply still gives out what it held back (a last space, a partial marker). */
  const flush = () => emit(kind === "refusal" ? refusalReader.flush() : reader.flush());
  try {
    for await (const part of stream) {
      if (part.type === "text-delta" || part.type === "refusal-delta") {
        kind ??= part.type === "text-delta" ? "text" : "refusal";
        const { said, out } = (kind === "text" ? reader : refusalReader).push(part.delta);
        if (kind === "text") text += said;
        else refusal += said;
        yield* emit(out);
      } else if (part.type === "finish") {
        finish = part;
      } else {
        yield* flush();
        yield { type: "error", error: toDocentError(part.error) };
        return;
      }
    }
  } catch (error) {
    yield* flush();
    if (isAbortError(error)) return;
    yield { type: "error", error: toDocentError(error) };
    return;
  }
  if (!finish) {
    yield* flush();
    yield { type: "error", error: new DocentError("BAD_GATEWAY", `The ${model.provider} stream ended before the reply was complete.`, { retryable: true }) };
    return;
  }
  yield* flush();
  // A reply that cites nothing drew on the pages given, unless it said nothing or declined: a refusal, a content
  // filter, or the sentence the prompt asks for when the excerpts do not answer.
  const drewOnNothing = text.trim() === "" || refusal !== "" || finish.finishReason === "content_filter" || saysNotCovered(text);
  const final = citations.order.length > 0 ? cited() : drewOnNothing ? [] : grounding.pages;
  if (final.length !== last.length || final.some((r, i) => r !== last[i])) yield { type: "references", references: final };
  if (includeReferences && final.length > 0) yield { type: "text-delta", delta: referencesBlock(final) };
  yield {
    type: "finish",
    finishReason: finish.finishReason,
    usage: settleUsage(finish.usage, { prompt: promptTokens, completion: () => countTokens(text + refusal) }),
  };
}

/** Whether a reply holds the sentence the prompt asks a model for when the excerpts do not answer (case and spacing aside). */
const folded = (text: string) =>
  text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[“”"']/g, "");
function saysNotCovered(text: string): boolean {
  return folded(text).includes(folded(NOT_COVERED_SENTENCE).replace(/\.$/, ""));
}
