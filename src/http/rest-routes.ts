import { Hono } from "hono";
import type { AdmitDeps } from "../auth/admit.ts";
import type { ResourceReader } from "../core/resource-reader.ts";
import { type CompletionOpener, runCompletion } from "../core/run-completion.ts";
import { parseChatRequest } from "../core/validate-request.ts";
import { type AdmissionEnv, admission, callerOf } from "./admission.ts";
import { limitBody } from "./body-limit.ts";
import { errorBody } from "./error-response.ts";
import { jsonBody } from "./json-body.ts";
import { includeReferencesQuery } from "./query-flags.ts";
import { responsesRoutes } from "./responses/responses-routes.ts";
import { sseResponse } from "./sse.ts";
import { type UsageRouteDeps, usageRoutes } from "./usage-routes.ts";

export interface RestDeps extends AdmitDeps {
  engine: CompletionOpener;
  resources: ResourceReader;
  maxBodyBytes: number;
  usage: UsageRouteDeps["usage"];
}

/** The REST interface: SPEC.md's chat-completions operation plus models and sources, under /v1. */
export function restRoutes({ engine, resources, maxBodyBytes, usage, ...admitDeps }: RestDeps) {
  const app = new Hono<AdmissionEnv>();
  app.use("*", admission(admitDeps, {}));

  app.post("/chat/completions", limitBody(maxBodyBytes, { rereadable: false }), async (c) => {
    const body = await jsonBody(c);
    const request = parseChatRequest(body);
    request.include_references ??= includeReferencesQuery(c, { json: (request.response_format?.type ?? "text") !== "text" });
    const caller = callerOf(c.get("admission"));
    const run = await runCompletion(engine, request, { signal: c.req.raw.signal, caller });
    const headers = {
      "x-docent-model": `${run.opened.provider}/${run.opened.modelId}`,
      "x-docent-sources": run.opened.sources.map((s) => s.id).join(","),
    };
    if (!request.stream) return c.json(await run.collect(), 200, headers);
    async function* frames() {
      for await (const event of run.chunks({ includeUsage: request.stream_options?.include_usage === true })) {
        if (event.type === "chunk") yield { data: event.chunk };
        else yield { data: errorBody(event.error), final: true };
      }
    }
    return sseResponse(frames(), { onCancel: run.abort, headers });
  });

  app.route("/responses", responsesRoutes({ engine, maxBodyBytes }));
  app.route("/", usageRoutes({ usage, maxBodyBytes }));
  app.get("/models", (c) => c.json(resources.listModels()));
  app.get("/models/:id", (c) => c.json(resources.getModel(c.req.param("id"))));
  app.get("/sources", async (c) => c.json(await resources.listSources(callerOf(c.get("admission")).scope)));
  app.get("/sources/:id", async (c) => c.json(await resources.getSource(c.req.param("id"), callerOf(c.get("admission")).scope)));
  return app;
}
