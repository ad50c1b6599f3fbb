import type { ChatCompletion, ChatCompletionChunk, ChunkDelta, UrlCitation, Usage } from "../../core/completion-object.ts";
import { builder } from "../builder.ts";

export const CompletionTokensDetails = builder.objectRef<Usage["completion_tokens_details"]>("CompletionTokensDetails").implement({
  fields: (t) => ({ reasoningTokens: t.int({ resolve: (d) => d.reasoning_tokens }) }),
});

export const PromptTokensDetails = builder.objectRef<Usage["prompt_tokens_details"]>("PromptTokensDetails").implement({
  fields: (t) => ({ cachedTokens: t.int({ description: "Prompt tokens the provider served from its prompt cache.", resolve: (d) => d.cached_tokens }) }),
});

export const UsageRef = builder.objectRef<Usage>("Usage").implement({
  description: "Token usage of the request.",
  fields: (t) => ({
    promptTokens: t.int({ resolve: (u) => u.prompt_tokens }),
    completionTokens: t.int({ resolve: (u) => u.completion_tokens }),
    totalTokens: t.int({ resolve: (u) => u.total_tokens }),
    completionTokensDetails: t.field({ type: CompletionTokensDetails, resolve: (u) => u.completion_tokens_details }),
    promptTokensDetails: t.field({ type: PromptTokensDetails, resolve: (u) => u.prompt_tokens_details }),
  }),
});

export const UrlCitationRef = builder.objectRef<UrlCitation>("UrlCitation").implement({
  description: "A reference as an OpenAI `url_citation` annotation: the span of its `[n]` marker in the content (0,0 when uncited).",
  fields: (t) => ({
    url: t.string({ resolve: (a) => a.url_citation.url }),
    title: t.string({ resolve: (a) => a.url_citation.title }),
    startIndex: t.int({ resolve: (a) => a.url_citation.start_index }),
    endIndex: t.int({ resolve: (a) => a.url_citation.end_index }),
  }),
});

type Message = ChatCompletion["choices"][number]["message"];
export const AssistantMessage = builder.objectRef<Message>("AssistantMessage").implement({
  fields: (t) => ({
    role: t.exposeString("role", { description: "Always `assistant`." }),
    content: t.string({ nullable: true, description: "The reply; null when the model declined (see `refusal`).", resolve: (m) => m.content }),
    refusal: t.string({ nullable: true, description: "The model's refusal, when it declined to answer.", resolve: (m) => m.refusal }),
    annotations: t.field({ type: [UrlCitationRef], resolve: (m) => m.annotations }),
  }),
});

export const ChatCompletionChoice = builder.objectRef<ChatCompletion["choices"][number]>("ChatCompletionChoice").implement({
  fields: (t) => ({
    index: t.exposeInt("index"),
    message: t.field({ type: AssistantMessage, resolve: (c) => c.message }),
    logprobs: t.field({ type: "JSON", nullable: true, resolve: () => null }),
    finishReason: t.string({ description: "`stop` when the reply completed.", resolve: (c) => c.finish_reason }),
  }),
});

export const ChatCompletionRef = builder.objectRef<ChatCompletion>("ChatCompletion").implement({
  description: "A complete reply (object = `chat.completion`).",
  fields: (t) => ({
    id: t.exposeString("id", { description: "Completion identifier, prefix `chatcmpl-`." }),
    object: t.exposeString("object", { description: "Constant `chat.completion`." }),
    created: t.exposeInt("created", { description: "Creation time, Unix seconds." }),
    model: t.exposeString("model", { description: "The model or agent name used." }),
    systemFingerprint: t.string({ description: "Backend fingerprint, prefix `fp_`.", resolve: (c) => c.system_fingerprint }),
    choices: t.field({ type: [ChatCompletionChoice], resolve: (c) => c.choices }),
    usage: t.field({ type: UsageRef, resolve: (c) => c.usage }),
    urlReferences: t.stringList({ description: "Web URLs the answer drew on.", resolve: (c) => c.url_references }),
  }),
});

export const ChunkDeltaRef = builder.objectRef<ChunkDelta>("ChatCompletionChunkDelta").implement({
  fields: (t) => ({
    content: t.string({ nullable: true, description: "String fragment of the reply.", resolve: (d) => d.content }),
    role: t.string({ nullable: true, resolve: (d) => d.role }),
    functionCall: t.field({ type: "JSON", nullable: true, resolve: () => null }),
    refusal: t.string({ nullable: true, description: "String fragment of the model's refusal, when it declined.", resolve: (d) => d.refusal }),
    toolCalls: t.field({ type: "JSON", nullable: true, resolve: () => null }),
    annotations: t.field({ type: [UrlCitationRef], nullable: true, resolve: (d) => d.annotations ?? null }),
  }),
});

export const ChunkChoice = builder.objectRef<ChatCompletionChunk["choices"][number]>("ChatCompletionChunkChoice").implement({
  fields: (t) => ({
    index: t.exposeInt("index"),
    delta: t.field({ type: ChunkDeltaRef, resolve: (c) => c.delta }),
    finishReason: t.string({ nullable: true, description: "Null while the reply is incomplete.", resolve: (c) => c.finish_reason }),
    logprobs: t.field({ type: "JSON", nullable: true, resolve: () => null }),
  }),
});

export const ChatCompletionChunkRef = builder.objectRef<ChatCompletionChunk>("ChatCompletionChunk").implement({
  description: "One streamed chunk (object = `chat.completion.chunk`).",
  fields: (t) => ({
    id: t.exposeString("id", { description: "Prefix `chatcmpl-`." }),
    object: t.exposeString("object", { description: "Constant `chat.completion.chunk`." }),
    created: t.exposeInt("created"),
    model: t.exposeString("model"),
    systemFingerprint: t.string({ resolve: (c) => c.system_fingerprint }),
    serviceTier: t.string({ nullable: true, resolve: () => null }),
    usage: t.field({ type: UsageRef, nullable: true, description: "Set on the usage chunk only.", resolve: (c) => c.usage }),
    choices: t.field({ type: [ChunkChoice], resolve: (c) => c.choices }),
    urlReferences: t.stringList({ description: "Web URLs the answer drew on; present on every chunk.", resolve: (c) => c.url_references }),
  }),
});
