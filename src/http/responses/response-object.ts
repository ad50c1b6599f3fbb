import { randomBytes } from "node:crypto";
import type { ChatCompletion, UrlCitation, Usage } from "../../core/completion-object.ts";
import type { ResponsesRequest } from "./request-schema.ts";

/** The Responses API's objects (openai-node `resources/responses/responses.ts`), as far as docent fills them. */
export interface UrlCitationAnnotation {
  type: "url_citation";
  url: string;
  title: string;
  start_index: number;
  end_index: number;
}

export interface OutputText {
  type: "output_text";
  text: string;
  annotations: UrlCitationAnnotation[];
  logprobs: [];
}

/** The model declined: OpenAI's refusal part, in place of the text. */
export interface OutputRefusal {
  type: "refusal";
  refusal: string;
}

export type OutputContent = OutputText | OutputRefusal;

export interface OutputMessage {
  type: "message";
  id: string;
  status: "in_progress" | "completed" | "incomplete";
  role: "assistant";
  content: OutputContent[];
}

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";

export interface ResponseObject {
  id: string;
  object: "response";
  created_at: number;
  status: ResponseStatus;
  completed_at: number | null;
  background: false;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: "max_output_tokens" | "content_filter" } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: OutputMessage[];
  parallel_tool_calls: false;
  previous_response_id: null;
  reasoning: { effort: null; summary: null };
  store: false;
  temperature: number | null;
  text: { format: NonNullable<NonNullable<ResponsesRequest["text"]>["format"]> };
  tool_choice: "none" | "auto";
  tools: [];
  top_p: number | null;
  truncation: "disabled";
  usage: ResponseUsage | null;
  user: string | null;
  metadata: Record<string, string>;
  /** docent's extension, as in chat: the pages the reply drew on, cited ones first. */
  url_references: string[];
}

/** What a response says from its first event to its last: ids, time, and the request echoed. */
export interface ResponseHead {
  id: string;
  messageId: string;
  createdAt: number;
  request: ResponsesRequest;
}

/** `id` is the completion's own in Responses form (core/completion-ids.ts), so feedback can name either. */
export function responseHead(request: ResponsesRequest, createdAt: number, id = `resp_${randomBytes(24).toString("hex")}`): ResponseHead {
  return { id, messageId: `msg_${randomBytes(24).toString("hex")}`, createdAt, request };
}

export interface ResponseState {
  status: ResponseStatus;
  output: OutputMessage[];
  usage: ResponseUsage | null;
  urlReferences: string[];
  error?: ResponseObject["error"];
  incompleteDetails?: ResponseObject["incomplete_details"];
}

export function responseObject(head: ResponseHead, state: ResponseState): ResponseObject {
  const r = head.request;
  return {
    id: head.id,
    object: "response",
    created_at: head.createdAt,
    status: state.status,
    completed_at: state.status === "completed" ? Math.floor(Date.now() / 1000) : null,
    background: false,
    error: state.error ?? null,
    incomplete_details: state.incompleteDetails ?? null,
    instructions: r.instructions ?? null,
    max_output_tokens: r.max_output_tokens ?? null,
    model: r.model,
    output: state.output,
    parallel_tool_calls: false,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: r.temperature ?? null,
    text: { format: r.text?.format ?? { type: "text" } },
    // Echoed as OpenAI echoes it ("auto" unless asked otherwise); with no tools either way, nothing is called.
    tool_choice: r.tool_choice ?? "auto",
    tools: [],
    top_p: r.top_p ?? null,
    truncation: "disabled",
    usage: state.usage,
    user: r.user ?? null,
    metadata: r.metadata ?? {},
    url_references: state.urlReferences,
  };
}

export const outputText = (text: string, annotations: UrlCitationAnnotation[] = []): OutputText => ({ type: "output_text", text, annotations, logprobs: [] });

export const outputRefusal = (refusal: string): OutputRefusal => ({ type: "refusal", refusal });

export const messageItem = (head: ResponseHead, status: OutputMessage["status"], content: OutputContent[]): OutputMessage => ({
  type: "message",
  id: head.messageId,
  status,
  role: "assistant",
  content,
});

/** Chat's `url_citation` nests its fields; the Responses API's is flat. Same spans. */
export const flatAnnotations = (citations: UrlCitation[]): UrlCitationAnnotation[] => citations.map(({ url_citation: c }) => ({ type: "url_citation", ...c }));

export const responseUsage = (u: Usage): ResponseUsage => ({
  input_tokens: u.prompt_tokens,
  input_tokens_details: { cached_tokens: u.prompt_tokens_details.cached_tokens },
  output_tokens: u.completion_tokens,
  output_tokens_details: { reasoning_tokens: u.completion_tokens_details.reasoning_tokens },
  total_tokens: u.total_tokens,
});

/** A reply cut by the token limit or a filter is `incomplete`, as OpenAI reports it. */
export function finishStatus(finishReason: string): Pick<ResponseState, "status" | "incompleteDetails"> {
  if (finishReason === "length") return { status: "incomplete", incompleteDetails: { reason: "max_output_tokens" } };
  if (finishReason === "content_filter") return { status: "incomplete", incompleteDetails: { reason: "content_filter" } };
  return { status: "completed" };
}

/** The non-streamed response: the collected chat completion, in the Responses API's shape. */
export function fromCompletion(head: ResponseHead, completion: ChatCompletion): ResponseObject {
  const choice = completion.choices[0]!;
  const finish = finishStatus(choice.finish_reason);
  const { content, refusal, annotations } = choice.message;
  const parts: OutputContent[] = [];
  if (content !== null) parts.push(outputText(content, flatAnnotations(annotations)));
  if (refusal !== null) parts.push(outputRefusal(refusal));
  const message = messageItem(head, finish.status === "completed" ? "completed" : "incomplete", parts);
  return responseObject(head, { ...finish, output: [message], usage: responseUsage(completion.usage), urlReferences: completion.url_references });
}
