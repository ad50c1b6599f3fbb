import { Hono } from "hono";
import { responseIdFor } from "../../core/completion-ids.ts";
import { toDocentError } from "../../core/errors.ts";
import { type CompletionOpener, runCompletion } from "../../core/run-completion.ts";
import { type AdmissionEnv, callerOf } from "../admission.ts";
import { limitBody } from "../body-limit.ts";
import { jsonBody } from "../json-body.ts";
import { includeReferencesQuery } from "../query-flags.ts";
import { sseResponse } from "../sse.ts";
import { parseResponsesRequest } from "./parse-request.ts";
import { responseEvents } from "./response-events.ts";
import { fromCompletion, responseHead } from "./response-object.ts";
import { toChatRequest } from "./to-chat-request.ts";

export interface ResponsesDeps {
  engine: CompletionOpener;
  maxBodyBytes: number;
}

/**
 * OpenAI's Responses API (`POST /v1/responses`) over the same completion run
 * as chat: the request is mapped to a chat request, and the run's collected
 * completion or its parts are mapped back. Admission (key, scope, limits) is
 * the /v1 middleware's.
 */
export function responsesRoutes({ engine, maxBodyBytes }: ResponsesDeps) {
  const app = new Hono<AdmissionEnv>();
  app.post("/", limitBody(maxBodyBytes, { rereadable: false }), async (c) => {
    const body = await jsonBody(c);
    const parsed = parseResponsesRequest(body);
    parsed.include_references ??= includeReferencesQuery(c, { json: (parsed.text?.format?.type ?? "text") !== "text" });
    const mapped = toChatRequest(parsed);
    const caller = callerOf(c.get("admission"));
    const inResponsesTerms = (error: unknown) => mapped.inResponsesTerms(toDocentError(error));
    const run = await runCompletion(engine, mapped.request, { signal: c.req.raw.signal, caller }).catch((error) => {
      throw inResponsesTerms(error);
    });
    const head = responseHead(parsed, run.meta.created, responseIdFor(run.meta.id));
    const headers = {
      "x-docent-model": `${run.opened.provider}/${run.opened.modelId}`,
      "x-docent-sources": run.opened.sources.map((s) => s.id).join(","),
    };
    if (!parsed.stream) {
      const completion = await run.collect().catch((error) => {
        throw inResponsesTerms(error);
      });
      return c.json(fromCompletion(head, completion), 200, headers);
    }
    async function* parts() {
      for await (const part of run.parts()) yield part.type === "error" ? { ...part, error: mapped.inResponsesTerms(part.error) } : part;
    }
    async function* frames() {
      for await (const event of responseEvents(head, parts(), run.opened.references)) {
        yield { event: event.type, data: event, final: event.type === "response.failed" };
      }
    }
    return sseResponse(frames(), { onCancel: run.abort, headers, doneMarker: false });
  });
  return app;
}
