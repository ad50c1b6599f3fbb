import type { LanguageModel } from "./language-model.ts";

/** What `GET /v1/models` shows for each public model name. */
export interface ModelDescription {
  id: string;
  /** `provider/modelId` it resolves to now, e.g. `openai/gpt-6.1-sol`. */
  resolvesTo: string;
  available: boolean;
  /** Why it is unavailable and what to set, when it is. */
  unavailableReason: string | null;
}

/** Maps the public model names (`agent`, `provider_a`, `provider_b`) to language models. */
export interface ModelRegistry {
  /** Throws NOT_FOUND for unknown names and BAD_REQUEST when a model is not configured. */
  resolve(name: string): LanguageModel;
  list(): ModelDescription[];
}
