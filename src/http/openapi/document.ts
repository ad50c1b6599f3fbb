import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ChatCompletionRequest } from "../../core/chat-request.ts";
import { FeedbackInput } from "../../core/feedback.ts";
import { UsageQueryInput } from "../../core/usage-report.ts";
import { ResponsesRequest } from "../responses/request-schema.ts";
import {
  ChatCompletion,
  ChatCompletionChunk,
  ErrorBody,
  Feedback,
  Health,
  KnowledgeSource,
  listOf,
  Model,
  ResponseObject,
  ResponseStreamEvent,
  UsageReport,
} from "./response-schemas.ts";

const ERRORS = {
  400: "The request is malformed or a parameter is invalid; `param` names it.",
  401: "Missing, incorrect, revoked or expired API key.",
  404: "Unknown model, knowledge source or route.",
  413: "The request body is larger than MAX_BODY_BYTES.",
  415: "The request body is sent with a Content-Encoding (`code: unsupported_content_encoding`); send it uncompressed.",
  429: "Over this key's rate or concurrency limit (`code: rate_limit_exceeded`); see the Retry-After header.",
  502: "The provider failed or could not be reached.",
  503: "The provider is overloaded or unavailable; see the Retry-After header.",
  504: "The provider did not answer within PROVIDER_DEADLINE_MS.",
} as const;
type Status = keyof typeof ERRORS;

const json = (schema: z.ZodType) => ({ "application/json": { schema } });
const errors = (...statuses: Status[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: ERRORS[s],
        content: json(ErrorBody),
        ...((s === 429 || s === 503) && {
          headers: { "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer" as const } } },
        }),
      },
    ]),
  );

const ASK_ERRORS: Status[] = [400, 401, 404, 413, 415, 429, 502, 503, 504];
const ModelId = z.string().meta({ param: { name: "id", in: "path" }, example: "agent" });
const SourceId = z.string().meta({ param: { name: "id", in: "path" }, description: "A knowledge-source UUID." });
const modelHeaders = {
  "x-docent-model": {
    description: "The provider and model that answered, e.g. `openai/gpt-6.1-sol`, or `extractive/docent-extractive-1` offline.",
    schema: { type: "string" as const },
  },
  "x-docent-sources": { description: "Comma-separated ids of the knowledge sources used.", schema: { type: "string" as const } },
};

/** `include_references` in the URL, for clients that cannot add body fields (query-flags.ts). */
const IncludeReferencesQuery = z.object({
  include_references: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .meta({ description: "As the body's include_references, when the body does not set it and the reply is text (Codex CLI's query_params)." }),
});

/**
 * OpenAPI 3.1 for the REST surface, generated from the zod schemas the routes
 * validate requests with (core's ChatCompletionRequest, the Responses
 * request) and the response schemas beside this file. Built once per process.
 */
export function buildOpenApiDocument(serverUrl?: string) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "A docent API key (`npm run cli -- keys create --name NAME`).",
  });
  const security = [{ [bearer.name]: [] }];

  registry.registerPath({
    method: "post",
    path: "/v1/chat/completions",
    summary: "Answer a question from the knowledge sources (OpenAI chat completions, SPEC.md)",
    security,
    request: { query: IncludeReferencesQuery, body: { required: true, content: json(ChatCompletionRequest) } },
    responses: {
      200: {
        description: "A completion (`stream` false), or server-sent events of ChatCompletionChunk ending with `data: [DONE]` (`stream` true).",
        headers: modelHeaders,
        content: { ...json(ChatCompletion), "text/event-stream": { schema: ChatCompletionChunk } },
      },
      ...errors(...ASK_ERRORS),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/v1/responses",
    summary: "Answer a question (OpenAI Responses API); docent stores nothing",
    security,
    request: { query: IncludeReferencesQuery, body: { required: true, content: json(ResponsesRequest) } },
    responses: {
      200: {
        description:
          "A response object (`stream` false), or server-sent events `event: response.*` (`stream` true) ending with response.completed, response.incomplete or response.failed.",
        headers: modelHeaders,
        content: { ...json(ResponseObject), "text/event-stream": { schema: ResponseStreamEvent } },
      },
      ...errors(...ASK_ERRORS),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/v1/models",
    summary: "List the models",
    security,
    responses: { 200: { description: "The models.", content: json(listOf(Model, "ModelList")) }, ...errors(401, 429) },
  });
  registry.registerPath({
    method: "get",
    path: "/v1/models/{id}",
    summary: "Get a model",
    security,
    request: { params: z.object({ id: ModelId }) },
    responses: { 200: { description: "The model.", content: json(Model) }, ...errors(401, 404, 429) },
  });
  registry.registerPath({
    method: "get",
    path: "/v1/sources",
    summary: "List the knowledge sources this key may use",
    security,
    responses: { 200: { description: "The sources.", content: json(listOf(KnowledgeSource, "KnowledgeSourceList")) }, ...errors(401, 429) },
  });
  registry.registerPath({
    method: "get",
    path: "/v1/sources/{id}",
    summary: "Get a knowledge source",
    security,
    request: { params: z.object({ id: SourceId }) },
    responses: { 200: { description: "The source.", content: json(KnowledgeSource) }, ...errors(401, 404, 429) },
  });
  registry.registerPath({
    method: "get",
    path: "/v1/usage",
    summary: "This key's usage: requests and tokens per UTC day and model",
    security,
    request: {
      query: UsageQueryInput.extend({
        since: UsageQueryInput.shape.since.meta({ description: "A duration back from now (24h, 7d, 2w) or a date (2026-11-01); default 30d." }),
        until: UsageQueryInput.shape.until.meta({ description: "A date (YYYY-MM-DD), included; default today." }),
      }),
    },
    responses: { 200: { description: "Usage buckets and totals.", content: json(UsageReport) }, ...errors(400, 401, 429) },
  });
  registry.registerPath({
    method: "post",
    path: "/v1/feedback",
    summary: "Rate an answer this key was served",
    description: "A later rating of the same completion replaces an earlier one. An id served to another key is answered like an unknown one (404).",
    security,
    request: { body: { required: true, content: json(FeedbackInput) } },
    responses: { 200: { description: "The feedback as stored.", content: json(Feedback) }, ...errors(400, 401, 404, 413, 415, 429) },
  });
  registry.registerPath({
    method: "get",
    path: "/healthz",
    summary: "Liveness and readiness (no key)",
    responses: { 200: { description: "Serving.", content: json(Health) }, 503: { description: "Starting or draining.", content: json(Health) } },
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "docent",
      version: "1",
      description:
        "Answers questions with text grounded in curated documentation and returns the pages it drew on. OpenAI-compatible chat completions and Responses, plus knowledge sources.",
    },
    servers: serverUrl ? [{ url: serverUrl }] : undefined,
  });
}
