import { Hono } from "hono";
import type { ChatEngine } from "../app-services.ts";
import { parseChatRequest } from "../core/validate-request.ts";
import { collectCompletion, completionChunks, CompletionFailed } from "../core/completion-object.ts";
import { badRequest, notFound } from "../core/errors.ts";
import type { KeyStore } from "../core/key-store.ts";
import type { ModelRegistry } from "../core/model-registry.ts";
import type { SourceCatalog, SourceInfo } from "../core/source-catalog.ts";
import { requireApiKey, type AuthEnv } from "./auth.ts";
import { limitBody } from "./body-limit.ts";
import { limitRate } from "./rate-limit.ts";
import type { RateLimiter } from "../core/rate-limiter.ts";
import { errorBody, errorResponse } from "./error-response.ts";
import { sseResponse } from "./sse.ts";

export interface RestDeps {
  engine: ChatEngine;
  keys: KeyStore;
  catalog: SourceCatalog;
  models: ModelRegistry;
  maxBodyBytes: number;
  rateLimiter: RateLimiter;
}

export const sourceObject = (s: SourceInfo) => ({
  id: s.id,
  object: "knowledge_source" as const,
  name: s.name,
  description: s.description,
  base_url: s.baseUrl,
  pages: s.pages,
  chunks: s.chunks,
  created_at: Math.floor(s.createdAt.getTime() / 1000),
  updated_at: Math.floor(s.updatedAt.getTime() / 1000),
});

/** The REST interface: SPEC.md's chat-completions operation plus models and sources, under /v1. */
export function restRoutes({ engine, keys, catalog, models, maxBodyBytes, rateLimiter }: RestDeps) {
  const app = new Hono<AuthEnv>();
  app.use("*", requireApiKey(keys), limitRate(rateLimiter));

  app.post("/chat/completions", limitBody(maxBodyBytes), async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      throw badRequest("The request body is not valid JSON.", null, "invalid_json");
    }
    const request = parseChatRequest(body);
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    c.req.raw.signal.addEventListener("abort", onAbort, { once: true });
    const opened = await engine.open(request, { signal: controller.signal });
    const headers = {
      "x-docent-model": `${opened.provider}/${opened.modelId}`,
      "x-docent-sources": opened.sources.map((s) => s.id).join(","),
    };
    if (!request.stream) {
      try {
        return c.json(await collectCompletion(opened), 200, headers);
      } catch (error) {
        if (error instanceof CompletionFailed) return errorResponse(error.error);
        throw error;
      } finally {
        c.req.raw.signal.removeEventListener("abort", onAbort);
      }
    }
    const chunks = completionChunks(opened, { includeUsage: request.stream_options?.include_usage === true });
    async function* frames() {
      for await (const event of chunks) {
        if (event.type === "chunk") yield { data: event.chunk };
        else yield { data: errorBody(event.error), final: true };
      }
    }
    return sseResponse(frames(), { onCancel: onAbort, headers });
  });

  app.get("/models", (c) => c.json({ object: "list", data: models.list().map(modelObject) }));
  app.get("/models/:id", (c) => {
    const model = models.list().find((m) => m.id === c.req.param("id"));
    if (!model) throw notFound(`The model '${c.req.param("id")}' does not exist.`, "model", "model_not_found");
    return c.json(modelObject(model));
  });
  app.get("/sources", async (c) => c.json({ object: "list", data: (await catalog.list()).map(sourceObject) }));
  app.get("/sources/:id", async (c) => {
    const source = await catalog.get(c.req.param("id"));
    if (!source) throw notFound(`No knowledge source with id '${c.req.param("id")}'.`, "id", "source_not_found");
    return c.json(sourceObject(source));
  });
  return app;
}

const STARTED = Math.floor(Date.now() / 1000);
const modelObject = (m: ReturnType<ModelRegistry["list"]>[number]) => ({
  id: m.id,
  object: "model" as const,
  created: STARTED,
  owned_by: "docent",
  resolves_to: m.resolvesTo,
  ...(m.structuredResolvesTo !== undefined && { structured_resolves_to: m.structuredResolvesTo }),
  available: m.available,
  unavailable_reason: m.unavailableReason,
});
