import type { ChatPart } from "../../core/chat-part.ts";
import { citations, toUsage } from "../../core/completion-object.ts";
import { type DocentError, toDocentError } from "../../core/errors.ts";
import type { Reference } from "../../core/references.ts";
import { errorBody } from "../error-response.ts";
import { finishStatus, flatAnnotations, messageItem, outputText, type ResponseHead, responseObject, responseUsage } from "./response-object.ts";

/** One streamed event: its `type` is also the SSE event name. */
export interface ResponseEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

/**
 * The engine's parts as the Responses API's event sequence: created,
 * in_progress, the message item and its text part opened, one delta per text
 * delta, then (the references being final only at the end) one
 * annotation.added per citation, the text, part and item done, and completed
 * (or incomplete). An error after the stream began ends it with `response.failed`.
 */
export async function* responseEvents(head: ResponseHead, parts: AsyncIterable<ChatPart>, candidates: Reference[]): AsyncGenerator<ResponseEvent> {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>): ResponseEvent => ({ type, sequence_number: sequence++, ...fields });
  const at = { item_id: head.messageId, output_index: 0, content_index: 0 };
  let references = candidates;
  const urls = () => references.map((r) => r.url);
  let text = "";

  const opening = responseObject(head, { status: "in_progress", output: [], usage: null, urlReferences: urls() });
  yield event("response.created", { response: opening });
  yield event("response.in_progress", { response: opening });
  yield event("response.output_item.added", { output_index: 0, item: messageItem(head, "in_progress", []) });
  yield event("response.content_part.added", { ...at, part: outputText("") });

  for await (const part of parts) {
    if (part.type === "text-delta") {
      text += part.delta;
      yield event("response.output_text.delta", { ...at, delta: part.delta, logprobs: [] });
    } else if (part.type === "references") {
      references = part.references;
    } else if (part.type === "error") {
      yield event("response.failed", { response: failed(head, text, urls(), part.error) });
      return;
    } else {
      const annotations = flatAnnotations(citations(text, references));
      for (const [index, annotation] of annotations.entries()) {
        yield event("response.output_text.annotation.added", { ...at, annotation_index: index, annotation });
      }
      const content = outputText(text, annotations);
      const finish = finishStatus(part.finishReason);
      const item = messageItem(head, finish.status === "completed" ? "completed" : "incomplete", [content]);
      yield event("response.output_text.done", { ...at, text, logprobs: [] });
      yield event("response.content_part.done", { ...at, part: content });
      yield event("response.output_item.done", { output_index: 0, item });
      const response = responseObject(head, { ...finish, output: [item], usage: responseUsage(toUsage(part.usage)), urlReferences: urls() });
      yield event(finish.status === "completed" ? "response.completed" : "response.incomplete", { response });
      return;
    }
  }
  // Every stream ends on a terminal event, even one the engine left unfinished.
  yield event("response.failed", { response: failed(head, text, urls(), toDocentError(new Error("completion ended without a finish part"))) });
}

/** The response as it stood when the error struck, with OpenAI's `{code, message}` error. */
function failed(head: ResponseHead, text: string, urlReferences: string[], error: DocentError) {
  const { code, message } = errorBody(error).error;
  const output = [messageItem(head, "incomplete", [outputText(text)])];
  return responseObject(head, { status: "failed", output, usage: null, urlReferences, error: { code: code ?? "server_error", message } });
}
