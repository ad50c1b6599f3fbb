import type { FinishReason, TokenUsage } from "./language-model.ts";
import type { Reference } from "./references.ts";

/** The door a request came in by; the route that serves it sets it. */
export type InterfaceName = "rest" | "responses" | "graphql" | "trpc" | "mcp" | "other";

/**
 * What one request carries into the core so that the completions it runs can
 * be told apart and attributed: made by the transport (request id, door), the
 * key id filled in by the admission. Never holds the key itself.
 */
export interface RequestTrace {
  readonly requestId: string;
  interface: InterfaceName;
  keyId: string | null;
  /** Called when a completion starts: it is pending until its `complete`, so the request's end can wait for its outcome. */
  begin?(): void;
  /**
   * Called once per completion the request ran, when it has ended (finished,
   * failed or abandoned). Awaited before the final part reaches the caller, so
   * a client that has seen the end of a reply can refer to it at once.
   */
  complete(outcome: CompletionOutcome): Promise<void>;
}

/** How the engine grounded a completion: what usage reports and the docs-gap report read. */
export interface GroundingSummary {
  /** True when the sources were taken not to cover the question (the fixed no-coverage reply, no references). */
  refused: boolean;
  /** Set when it was the model, given the sources, that declined or cited none of them (a provider was called). */
  byModel?: boolean;
  /**
   * Set when the model's reply was a refusal (OpenAI's `refusal`): it declined the request itself, on its own
   * grounds, which says nothing of what the documentation lacks, so the docs-gap report leaves it out.
   */
  modelRefusal?: boolean;
  /** Share of the question the best passage covers (0..1), null when nothing was found. */
  coverage: number | null;
  /** The pages that came closest, best first, also when refused. */
  closest: Reference[];
  /** Time spent choosing sources and retrieving. */
  retrievalMs: number;
}

/**
 * One completion as it ended: the per-request record every observer reads —
 * logs and metrics, usage per key, feedback and the docs-gap report.
 * `question` and `answer` are here so observers that may store them can;
 * whether they do is their configuration's business (off by default).
 */
export interface CompletionOutcome {
  requestId: string | null;
  interface: InterfaceName;
  keyId: string | null;
  /** The `chatcmpl-…` id the caller saw. */
  completionId: string;
  /** Unix seconds, as in the completion object. */
  created: number;
  /** The public model name asked for (`agent`, `provider_a`…) and what answered. */
  model: string;
  provider: string;
  modelId: string;
  sourceIds: string[];
  /** The final references (cited pages in citation order). */
  references: Reference[];
  grounding: GroundingSummary | null;
  /** `completed`: a finish part was reached; `failed`: an error part or throw; `abandoned`: the caller stopped reading. */
  status: "completed" | "failed" | "abandoned";
  finishReason: FinishReason | null;
  /** Zero when the completion did not finish (no usage reported). */
  usage: TokenUsage;
  error: { code: string; message: string } | null;
  /** The last user message. */
  question: string;
  /** The reply text as delivered (up to where it stopped). */
  answer: string;
  timings: {
    /** Milliseconds since the epoch when the run started. */
    startedAt: number;
    /** Until the engine had opened the completion (retrieval, provider accepted the call). */
    openMs: number;
    /** Until the first text delta, null when there was none. */
    firstTokenMs: number | null;
    /** Until the end. */
    totalMs: number;
  };
}

/** A consumer of outcomes (metrics, usage store…): registered once at wiring, called for every completion. */
export interface CompletionObserver {
  onCompletion(outcome: CompletionOutcome): void | Promise<void>;
}
