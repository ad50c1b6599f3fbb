import { createHash, randomBytes } from "node:crypto";
import type { ChatPart, OpenedCompletion } from "./chat-part.ts";
import { citationMarkers } from "./citations.ts";
import type { DocentError } from "./errors.ts";
import type { TokenUsage } from "./language-model.ts";
import type { Reference } from "./references.ts";

/** The spec's objects (SPEC.md "Resources"), shared by every interface. */
export interface UrlCitation {
  type: "url_citation";
  url_citation: { url: string; title: string; start_index: number; end_index: number };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  completion_tokens_details: { reasoning_tokens: number };
  /** As OpenAI reports it: the prompt tokens its cache served. */
  prompt_tokens_details: { cached_tokens: number };
}

export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  system_fingerprint: string;
  choices: Array<{
    index: number;
    /** A model's refusal is `refusal`, with `content` null, as OpenAI says it. */
    message: { role: "assistant"; content: string | null; refusal: string | null; annotations: UrlCitation[] };
    logprobs: null;
    finish_reason: string;
  }>;
  usage: Usage;
  url_references: string[];
}

export interface ChunkDelta {
  content: string | null;
  role: "assistant" | null;
  function_call: null;
  refusal: string | null;
  tool_calls: null;
  annotations?: UrlCitation[];
}

export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  system_fingerprint: string;
  service_tier: null;
  usage: Usage | null;
  choices: Array<{ index: number; delta: ChunkDelta; finish_reason: string | null; logprobs: null }>;
  url_references: string[];
}

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
  systemFingerprint: string;
}

export function completionMeta(opened: Pick<OpenedCompletion, "model" | "provider" | "modelId">, now = Date.now()): CompletionMeta {
  return {
    id: `chatcmpl-${randomBytes(12).toString("hex")}`,
    created: Math.floor(now / 1000),
    model: opened.model,
    systemFingerprint: `fp_${createHash("sha256").update(`${opened.provider}/${opened.modelId}`).digest("hex").slice(0, 10)}`,
  };
}

export function toUsage(usage: TokenUsage): Usage {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
  };
}

/**
 * OpenAI-standard `url_citation` annotations for the references: each spans
 * the first marker that cites it (`[2]`, or `[1, 2]` for a sentence two pages
 * state), or is empty (0,0) when uncited.
 */
export function citations(text: string, references: readonly Reference[]): UrlCitation[] {
  const spans = new Map<number, [number, number]>();
  for (const { index, length, numbers } of citationMarkers(text)) {
    for (const n of numbers) if (!spans.has(n)) spans.set(n, [index, index + length]);
  }
  return references.map((ref, i) => {
    const [start, end] = spans.get(i + 1) ?? [0, 0];
    return { type: "url_citation", url_citation: { url: ref.url, title: ref.title, start_index: start, end_index: end } };
  });
}

/** The non-streamed response: the same parts, collected. Throws the DocentError of an in-stream error. */
export async function collectCompletion(opened: OpenedCompletion, meta = completionMeta(opened)): Promise<ChatCompletion> {
  let content = "";
  let refusal = "";
  let references = opened.references;
  let finish: Extract<ChatPart, { type: "finish" }> | undefined;
  for await (const part of opened.parts) {
    if (part.type === "text-delta") content += part.delta;
    else if (part.type === "refusal-delta") refusal += part.delta;
    else if (part.type === "references") references = part.references;
    else if (part.type === "finish") finish = part;
    else throw part.error;
  }
  if (!finish) throw new Error("completion ended without a finish part");
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    system_fingerprint: meta.systemFingerprint,
    choices: [
      {
        index: 0,
        // A reply is its text or a refusal (reply-stream.ts keeps it one kind).
        message: refusal
          ? { role: "assistant", content: null, refusal, annotations: [] }
          : { role: "assistant", content, refusal: null, annotations: citations(content, references) },
        logprobs: null,
        finish_reason: finish.finishReason,
      },
    ],
    usage: toUsage(finish.usage),
    url_references: references.map((r) => r.url),
  };
}

export type ChunkEvent = { type: "chunk"; chunk: ChatCompletionChunk } | { type: "error"; error: DocentError };

/**
 * The streamed response: a role chunk, one chunk per text delta, a finish
 * chunk carrying the annotations, and a usage chunk when asked for. The
 * finish chunk's url_references are the final ones (the pages cited).
 */
export async function* completionChunks(
  opened: OpenedCompletion,
  { includeUsage = false, meta = completionMeta(opened) }: { includeUsage?: boolean; meta?: CompletionMeta } = {},
): AsyncGenerator<ChunkEvent> {
  let references = opened.references;
  let urls = references.map((r) => r.url);
  const chunk = (delta: Partial<ChunkDelta>, finishReason: string | null = null, usage: Usage | null = null, withChoice = true): ChunkEvent => ({
    type: "chunk",
    chunk: {
      id: meta.id,
      object: "chat.completion.chunk",
      created: meta.created,
      model: meta.model,
      system_fingerprint: meta.systemFingerprint,
      service_tier: null,
      usage,
      choices: withChoice
        ? [
            {
              index: 0,
              delta: { content: null, role: null, function_call: null, refusal: null, tool_calls: null, ...delta },
              finish_reason: finishReason,
              logprobs: null,
            },
          ]
        : [],
      url_references: urls,
    },
  });
  // The role's chunk says which kind the reply is, as OpenAI's does: a refusal's opens with content null and refusal "".
  // The engine has the first part by the time a completion is open, so looking at it delays nothing.
  const parts = opened.parts[Symbol.asyncIterator]();
  const first = await parts.next();
  yield chunk(!first.done && first.value.type === "refusal-delta" ? { role: "assistant", refusal: "" } : { role: "assistant", content: "" });
  let content = "";
  let refused = false;
  for await (const part of withFirst(first, parts)) {
    if (part.type === "text-delta") {
      content += part.delta;
      yield chunk({ content: part.delta });
    } else if (part.type === "refusal-delta") {
      refused = true;
      yield chunk({ refusal: part.delta });
    } else if (part.type === "references") {
      // Chunks carry the references as they stand: cited pages first, matching the markers so far.
      references = part.references;
      urls = references.map((r) => r.url);
    } else if (part.type === "error") {
      yield { type: "error", error: part.error };
      return;
    } else {
      // A refusal's last chunk says no text either (content null, as in the whole message).
      yield chunk(refused ? { annotations: [] } : { content: "", annotations: citations(content, references) }, part.finishReason);
      if (includeUsage) yield chunk({}, null, toUsage(part.usage), false);
    }
  }
}

/** The parts again, the first already read; leaving early closes the source. */
async function* withFirst<T>(first: IteratorResult<T>, rest: AsyncIterator<T>): AsyncGenerator<T> {
  try {
    if (first.done) return;
    yield first.value;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.();
  }
}
