import type { GroundingSummary } from "./completion-outcome.ts";
import type { DocentError } from "./errors.ts";
import type { FinishReason, TokenUsage } from "./language-model.ts";
import type { Reference } from "./references.ts";
import type { SourceInfo } from "./source-catalog.ts";

/** What the engine streams for one completion; every interface is a mapping of these parts. */
export type ChatPart =
  | { type: "text-delta"; delta: string }
  /** The model declined (OpenAI's `refusal`): said apart from the reply's text, as OpenAI's interfaces say it. */
  | { type: "refusal-delta"; delta: string }
  /** The references as they stand now: cited pages first, in citation order; the last one is final. */
  | { type: "references"; references: Reference[] }
  | { type: "finish"; finishReason: FinishReason; usage: TokenUsage }
  | { type: "error"; error: DocentError };

/** A completion whose pre-flight (model, sources, retrieval, provider call) succeeded. */
export interface OpenedCompletion {
  /** The public model name the caller asked for (`agent`, `provider_a`…). */
  model: string;
  provider: string;
  modelId: string;
  sources: SourceInfo[];
  /** The candidate references, before the reply says which it cites (see the `references` part). */
  references: Reference[];
  /** How the question was grounded (for outcome observers); absent from engines that do not say. */
  grounding?: GroundingSummary;
  parts: AsyncIterable<ChatPart>;
}
