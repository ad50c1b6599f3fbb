import { z } from "zod";
import { badRequest } from "../../core/errors.ts";
import { refuseMisnamedFields } from "../../core/misnamed-fields.ts";
import { paramPath, zodToBadRequest } from "../../core/validate-request.ts";
import { ResponsesRequest } from "./request-schema.ts";

/**
 * A union's issue says only that no branch fitted. When exactly one branch
 * had the right kind of value (a list of parts, not a string), that branch's
 * own first issue is the useful one: `input[0].content[1].type`, not `input`.
 */
function usefulIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return issue;
  const wrongKind = (branch: z.core.$ZodIssue[]) => branch.some((i) => i.code === "invalid_type" && i.path.length === 0);
  const fitting = issue.errors.filter((branch) => !wrongKind(branch));
  // No branch fitted the kind of value: a type error with the union's message (so a missing field reads as missing).
  if (fitting.length === 0) return { ...issue.errors[0]!.find((i) => i.path.length === 0)!, path: issue.path, message: issue.message };
  if (fitting.length !== 1 || !fitting[0]![0]) return issue;
  const inner = fitting[0]![0];
  return usefulIssue({ ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue);
}

/** Parameters of OpenAI's API that need stored state, a tool call or logprobs, which docent does not have. */
const UNSUPPORTED = new Set(["previous_response_id", "conversation", "store", "background", "prompt", "tool_choice", "top_logprobs"]);

const RESPONSES_FIELDS: ReadonlySet<string> = new Set(Object.keys(ResponsesRequest.shape));

/** Parses a Responses request body (already JSON-decoded) or throws a BAD_REQUEST naming the parameter. */
export function parseResponsesRequest(body: unknown): ResponsesRequest {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw badRequest("The request body must be a JSON object.", null, "invalid_json");
  }
  const result = ResponsesRequest.safeParse(body);
  if (result.success) {
    refuseMisnamedFields(body, RESPONSES_FIELDS);
    return result.data;
  }
  const first = result.error.issues[0];
  if (!first) throw zodToBadRequest(result.error, body);
  const issue = usefulIssue(first);
  const param = paramPath(issue.path);
  if (param && UNSUPPORTED.has(param)) throw badRequest(`Unsupported parameter '${param}': ${issue.message}`, param, "unsupported_parameter");
  throw zodToBadRequest(new z.ZodError([issue]), body);
}
