/**
 * The language-model port, after the Vercel AI SDK provider spec: a plain
 * object with `doGenerate` and `doStream`, one options object, typed parts.
 */
export type FinishReason = "stop" | "length" | "content_filter" | "error";

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** Of the prompt tokens, those the provider served from its prompt cache (when it says). */
  cachedTokens?: number;
}

export interface ModelMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A retrieved passage (or the part of one that is one section) given to the model, numbered as its reference `[n]`. */
export interface GroundingDocument {
  /** 1-based number of the reference (a page's section, `url`) this text belongs to. */
  referenceNumber: number;
  /** Which retrieved passage, in order of relevance, the text comes from (several documents when it spans sections). */
  passage?: number;
  title: string;
  section: string;
  /** The page with the section's anchor. */
  url: string;
  text: string;
}

import type { StructuredFormat } from "./structured-output.ts";

export interface ModelCallOptions {
  /** The full prompt: system instructions (with the rendered context) and the conversation. */
  prompt: ModelMessage[];
  /** The same context as structured passages, for models that work on documents directly. */
  documents: GroundingDocument[];
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  seed?: number;
  user?: string;
  /** Structured output: the model must reply with JSON of this format (natively, where the provider can). */
  responseFormat?: StructuredFormat;
  abortSignal?: AbortSignal;
}

export type ModelStreamPart =
  | { type: "text-delta"; delta: string }
  /** The model declined, in its own field (OpenAI's `refusal`): the reply is this text and no other. */
  | { type: "refusal-delta"; delta: string }
  | { type: "finish"; finishReason: FinishReason; usage?: Partial<TokenUsage> }
  | { type: "error"; error: unknown };

export interface GenerateResult {
  text: string;
  /** Set when the model declined (OpenAI's `refusal`); `text` is then empty. */
  refusal?: string;
  finishReason: FinishReason;
  usage?: Partial<TokenUsage>;
}

export interface LanguageModel {
  /** `openai`, `anthropic`, `extractive`. */
  readonly provider: string;
  readonly modelId: string;
  /** Whether the model can be constrained to a JSON schema (`responseFormat`). */
  readonly supportsStructuredOutput: boolean;
  doGenerate(options: ModelCallOptions): Promise<GenerateResult>;
  /** Resolves once the provider has accepted the call; failures to start reject here. */
  doStream(options: ModelCallOptions): Promise<StreamResult>;
}

export interface StreamResult {
  stream: AsyncIterable<ModelStreamPart>;
  /** The model that actually answers, when it is not this one (a fallback took over). */
  answeredBy?: { provider: string; modelId: string };
}
