import type { z } from "zod";
import { ChatCompletionRequest, UNSUPPORTED_CHAT_PARAMETERS } from "./chat-request.ts";
import { badRequest } from "./errors.ts";
import { refuseMisnamedFields } from "./misnamed-fields.ts";

const CHAT_FIELDS: ReadonlySet<string> = new Set(Object.keys(ChatCompletionRequest.shape));

/** `["messages", 2, "role"]` → `messages[2].role`, OpenAI's `param` form. */
export function paramPath(path: readonly PropertyKey[]): string | null {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || null;
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const key of path) value = value == null ? undefined : (value as Record<PropertyKey, unknown>)[key];
  return value;
}

/** The first validation issue as a BAD_REQUEST naming the parameter, OpenAI style. */
export function zodToBadRequest(error: z.ZodError, body: unknown) {
  const issue = error.issues[0];
  if (!issue) return badRequest("Invalid request body.");
  const param = paramPath(issue.path);
  // The whole input is of the wrong type (tRPC's empty body, `null`, `[]`): said as REST says it.
  if (param === null && issue.code === "invalid_type") return badRequest("The request body must be a JSON object.", null, "invalid_json");
  if (issue.code === "invalid_type" && valueAt(body, issue.path) === undefined) {
    return badRequest(`Missing required parameter: '${param}'.`, param, "missing_required_parameter");
  }
  if (param && UNSUPPORTED_CHAT_PARAMETERS.has(param)) return badRequest(`Unsupported parameter '${param}': ${issue.message}`, param, "unsupported_parameter");
  // Over a bound, OpenAI's codes for the same refusal (as input-limits.ts uses).
  const reason =
    issue.code === "too_big" && issue.origin === "string"
      ? "string_above_max_length"
      : issue.code === "too_big" && issue.origin === "array"
        ? "array_above_max_length"
        : "invalid_value";
  return badRequest(`Invalid value for '${param ?? "body"}': ${issue.message}`, param, reason);
}

/** Parses a request body (already JSON-decoded) or throws a BAD_REQUEST DocentError. */
export function parseChatRequest(body: unknown): ChatCompletionRequest {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw badRequest("The request body must be a JSON object.", null, "invalid_json");
  }
  const result = ChatCompletionRequest.safeParse(body);
  if (!result.success) throw zodToBadRequest(result.error, body);
  refuseMisnamedFields(body, CHAT_FIELDS);
  return result.data;
}
