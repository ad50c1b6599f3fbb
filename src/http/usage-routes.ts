import { Hono } from "hono";
import { badRequest } from "../core/errors.ts";
import { FeedbackInput, type SubmitFeedback } from "../core/feedback.ts";
import { type ReadUsage, UsageQueryInput } from "../core/usage-report.ts";
import { zodToBadRequest } from "../core/validate-request.ts";
import { type AdmissionEnv, callerOf } from "./admission.ts";
import { limitBody } from "./body-limit.ts";
import { jsonBody } from "./json-body.ts";

export interface UsageRouteDeps {
  usage: { read: ReadUsage; submitFeedback: SubmitFeedback };
  maxBodyBytes: number;
}

/** Query parameters as one value each: a repeated or unknown one is refused, naming it. */
function queryOf(queries: Record<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, values] of Object.entries(queries)) {
    if (!Object.hasOwn(UsageQueryInput.shape, name))
      throw badRequest(`Unrecognized query parameter: '${name}'. GET /v1/usage takes 'since' and 'until'.`, name, "unknown_parameter");
    if (values.length !== 1) throw badRequest(`Query parameter '${name}' is given ${values.length} times; give it once.`, name);
    out[name] = values[0]!;
  }
  return out;
}

/**
 * `GET /v1/usage` (the calling key's own usage only) and `POST /v1/feedback`
 * (on a completion served to the calling key): thin mappings of the core's
 * functions. Admission is the /v1 middleware's.
 */
export function usageRoutes({ usage, maxBodyBytes }: UsageRouteDeps) {
  const app = new Hono<AdmissionEnv>();
  app.get("/usage", async (c) => {
    const caller = callerOf(c.get("admission"));
    const parsed = UsageQueryInput.safeParse(queryOf(c.req.queries()));
    if (!parsed.success) throw zodToBadRequest(parsed.error, c.req.query());
    return c.json(await usage.read(caller.key.id, parsed.data));
  });
  app.post("/feedback", limitBody(maxBodyBytes, { rereadable: false }), async (c) => {
    const body = await jsonBody(c);
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw badRequest("The request body must be a JSON object.", null, "invalid_json");
    const parsed = FeedbackInput.safeParse(body);
    if (!parsed.success) throw zodToBadRequest(parsed.error, body);
    return c.json(await usage.submitFeedback(callerOf(c.get("admission")).key.id, parsed.data));
  });
  return app;
}
