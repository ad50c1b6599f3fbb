import { z } from "zod";

/**
 * What the REST routes send back, as zod schemas for the OpenAPI document.
 * The routes build these objects in core (resources.ts, completion-object.ts);
 * test/openapi.test.ts checks live responses against the document, so a field
 * added or renamed there and not here fails the suite. Strict objects: an
 * undocumented field is drift, not a bonus.
 */
export const ErrorBody = z
  .strictObject({
    error: z.strictObject({
      message: z.string(),
      type: z.string().meta({ description: "invalid_request_error (also for a missing or wrong key, as OpenAI says it), rate_limit_error or server_error" }),
      param: z.string().nullable(),
      code: z.string().nullable(),
    }),
  })
  .meta({ id: "Error" });

export const Model = z
  .strictObject({
    id: z.enum(["agent", "provider_a", "provider_b"]),
    object: z.literal("model"),
    created: z.int(),
    owned_by: z.literal("docent"),
    resolves_to: z.string(),
    structured_resolves_to: z.string().nullable().optional(),
    available: z.boolean(),
    unavailable_reason: z.string().nullable(),
  })
  .meta({ id: "Model" });

export const KnowledgeSource = z
  .strictObject({
    id: z.uuid(),
    object: z.literal("knowledge_source"),
    name: z.string(),
    description: z.string(),
    base_url: z.url(),
    pages: z.int(),
    chunks: z.int(),
    created_at: z.int().meta({ description: "Unix seconds" }),
    updated_at: z.int().meta({ description: "Unix seconds" }),
    last_synced_at: z
      .int()
      .nullable()
      .meta({ description: "Unix seconds: when it was last read from its origin successfully; null before its first recorded sync" }),
    last_sync: z
      .strictObject({
        status: z.enum(["ok", "failed"]),
        trigger: z.enum(["add", "manual", "schedule"]),
        started_at: z.int(),
        finished_at: z.int(),
        seconds: z.number(),
        added: z.int(),
        changed: z.int(),
        removed: z.int(),
        unchanged: z.int(),
        not_modified: z.int().meta({ description: "Pages their server answered 304 Not Modified for (counted in unchanged)" }),
        skipped: z.int(),
        error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
      })
      .nullable()
      .meta({ id: "SourceSync", description: "The last sync (by hand, by cron or on the server's schedule), succeeded or failed; null before the first" }),
  })
  .meta({ id: "KnowledgeSource" });

export const listOf = <T extends z.ZodType>(item: T, id: string) => z.strictObject({ object: z.literal("list"), data: z.array(item) }).meta({ id });

const UrlCitation = z.strictObject({
  type: z.literal("url_citation"),
  url_citation: z.strictObject({ url: z.url(), title: z.string(), start_index: z.int(), end_index: z.int() }),
});

const Usage = z.strictObject({
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  total_tokens: z.int(),
  completion_tokens_details: z.strictObject({ reasoning_tokens: z.int() }),
  prompt_tokens_details: z.strictObject({ cached_tokens: z.int() }),
});

const UrlReferences = z
  .array(z.url())
  .meta({ description: "The pages the answer drew on (SPEC.md); empty when include_references is false and nothing was cited." });

export const ChatCompletion = z
  .strictObject({
    id: z.string(),
    object: z.literal("chat.completion"),
    created: z.int(),
    model: z.string(),
    system_fingerprint: z.string(),
    choices: z.array(
      z.strictObject({
        index: z.int(),
        message: z.strictObject({
          role: z.literal("assistant"),
          content: z.string().nullable().meta({ description: "The reply; null when the model declined (`refusal`)." }),
          refusal: z.string().nullable().meta({ description: "The model's refusal, when it declined to answer (structured output, as OpenAI says it)." }),
          annotations: z.array(UrlCitation),
        }),
        logprobs: z.null(),
        finish_reason: z.string(),
      }),
    ),
    usage: Usage,
    url_references: UrlReferences,
  })
  .meta({ id: "ChatCompletion" });

export const ChatCompletionChunk = z
  .strictObject({
    id: z.string(),
    object: z.literal("chat.completion.chunk"),
    created: z.int(),
    model: z.string(),
    system_fingerprint: z.string(),
    service_tier: z.null(),
    usage: Usage.nullable(),
    choices: z.array(
      z.strictObject({
        index: z.int(),
        delta: z.strictObject({
          content: z.string().nullable(),
          role: z.union([z.literal("assistant"), z.null()]),
          function_call: z.null(),
          refusal: z.string().nullable(),
          tool_calls: z.null(),
          annotations: z.array(UrlCitation).optional(),
        }),
        finish_reason: z.string().nullable(),
        logprobs: z.null(),
      }),
    ),
    url_references: UrlReferences,
  })
  .meta({
    id: "ChatCompletionChunk",
    description: "One `data:` event of a streamed completion; the stream ends with `data: [DONE]`, or with an Error event and no [DONE].",
  });

/** The Responses API's citation: flat, where chat nests it under `url_citation`. */
const FlatUrlCitation = z
  .looseObject({ type: z.literal("url_citation"), url: z.url(), title: z.string(), start_index: z.int(), end_index: z.int() })
  .meta({ id: "FlatUrlCitation" });
const OutputText = z.looseObject({ type: z.literal("output_text"), text: z.string(), annotations: z.array(FlatUrlCitation) }).meta({ id: "OutputText" });
const OutputRefusal = z
  .looseObject({ type: z.literal("refusal"), refusal: z.string() })
  .meta({ id: "OutputRefusal", description: "The model declined to answer." });
const OutputContent = z.union([OutputText, OutputRefusal]);
const OutputMessage = z
  .looseObject({
    type: z.literal("message"),
    id: z.string(),
    status: z.enum(["in_progress", "completed", "incomplete"]),
    role: z.literal("assistant"),
    content: z.array(OutputContent),
  })
  .meta({ id: "OutputMessage" });

/** OpenAI's Responses object: the fields docent fills, others allowed (the API adds fields often). */
export const ResponseObject = z
  .looseObject({
    id: z.string(),
    object: z.literal("response"),
    created_at: z.int(),
    status: z.enum(["in_progress", "completed", "incomplete", "failed"]),
    model: z.string(),
    output: z.array(OutputMessage),
    usage: z.looseObject({ input_tokens: z.int(), output_tokens: z.int(), total_tokens: z.int() }).nullable(),
    url_references: UrlReferences,
  })
  .meta({ id: "Response" });

/** Where in the response a content event belongs: the one message item and its content part. */
const At = { sequence_number: z.int(), item_id: z.string(), output_index: z.literal(0), content_index: z.int() };
const withResponse = (type: string) => z.strictObject({ type: z.literal(type), sequence_number: z.int(), response: ResponseObject });
const withItem = (type: string) => z.strictObject({ type: z.literal(type), sequence_number: z.int(), output_index: z.literal(0), item: OutputMessage });

/** One streamed Responses API event, as docent sends them (each also named by its SSE `event:` line). */
export const ResponseStreamEvent = z
  .discriminatedUnion("type", [
    withResponse("response.created"),
    withResponse("response.in_progress"),
    withResponse("response.completed"),
    withResponse("response.incomplete"),
    withResponse("response.failed"),
    withItem("response.output_item.added"),
    withItem("response.output_item.done"),
    z.strictObject({ type: z.literal("response.content_part.added"), ...At, part: OutputContent }),
    z.strictObject({ type: z.literal("response.content_part.done"), ...At, part: OutputContent }),
    z.strictObject({ type: z.literal("response.output_text.delta"), ...At, delta: z.string(), logprobs: z.array(z.unknown()) }),
    z.strictObject({ type: z.literal("response.output_text.annotation.added"), ...At, annotation_index: z.int(), annotation: FlatUrlCitation }),
    z.strictObject({ type: z.literal("response.output_text.done"), ...At, text: z.string(), logprobs: z.array(z.unknown()) }),
    z.strictObject({ type: z.literal("response.refusal.delta"), ...At, delta: z.string() }),
    z.strictObject({ type: z.literal("response.refusal.done"), ...At, refusal: z.string() }),
  ])
  .meta({ id: "ResponseStreamEvent", description: "One `data:` event of a streamed response; its `event:` line is its `type`. There is no [DONE]." });

export const Health = z.strictObject({ status: z.enum(["starting", "ok", "draining"]) }).meta({ id: "Health" });

const UsageTotals = {
  requests: z.int(),
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  total_tokens: z.int(),
};

export const UsageReport = z
  .strictObject({
    object: z.literal("usage"),
    since: z.string().meta({ description: "First UTC day covered (YYYY-MM-DD), included" }),
    until: z.string().meta({ description: "Last UTC day covered, included" }),
    data: z.array(
      z.strictObject({
        object: z.literal("usage.bucket"),
        date: z.string().meta({ description: "UTC day, YYYY-MM-DD" }),
        key_id: z.string(),
        model: z.string().meta({ description: "The model the caller named" }),
        served_by: z.string().meta({ description: "What answered: provider/model" }),
        ...UsageTotals,
      }),
    ),
    totals: z.strictObject(UsageTotals),
  })
  .meta({ id: "Usage" });

export const Feedback = z
  .strictObject({
    object: z.literal("feedback"),
    completion_id: z.string(),
    rating: z.enum(["up", "down"]),
    comment: z.string().nullable(),
    created_at: z.int().meta({ description: "Unix seconds" }),
  })
  .meta({ id: "Feedback" });
