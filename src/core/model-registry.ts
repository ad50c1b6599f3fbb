import type { LanguageModel } from "./language-model.ts";

/** What `GET /v1/models` shows for each public model name. */
export interface ModelDescription {
  id: string;
  /** `provider/modelId` it resolves to now, e.g. `openai/gpt-6.1-sol`. */
  resolvesTo: string;
  available: boolean;
  /** Why it is unavailable and what to set, when it is. */
  unavailableReason: string | null;
  /** For the agent: the model it switches to for structured output (null when none is configured). */
  structuredResolvesTo?: string | null;
}

/** Maps the public model names (`agent`, `provider_a`, `provider_b`) to language models. */
export interface ModelRegistry {
  /**
   * Throws NOT_FOUND for unknown names and BAD_REQUEST when a model is not
   * configured. With `structured`, the agent resolves to its structured-output model.
   */
  resolve(name: string, options?: { structured?: boolean }): LanguageModel;
  list(): ModelDescription[];
}
