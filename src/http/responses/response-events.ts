import type { ChatPart } from "../../core/chat-part.ts";
import { citations, toUsage } from "../../core/completion-object.ts";
import { type DocentError, toDocentError } from "../../core/errors.ts";
import type { Reference } from "../../core/references.ts";
import { errorBody } from "../error-response.ts";
import {
  finishStatus,
  flatAnnotations,
  messageItem,
  type OutputContent,
  outputRefusal,
  outputText,
  type ResponseHead,
  responseObject,
  responseUsage,
} from "./response-object.ts";

/** One streamed event: its `type` is also the SSE event name. */
export interface ResponseEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

/**
 * The engine's parts as the Responses API's event sequence: created,
 * in_progress, the message item; its content part opened at the first delta
 * (`output_text`, or `refusal` when the model declined, as OpenAI streams
 * them), one delta event per delta, then (the references being final only at
 * the end) one annotation.added per citation, the part and item done, and
 * completed (or incomplete). An error after the stream began ends it with
 * `response.failed`.
 */
export async function* responseEvents(head: ResponseHead, parts: AsyncIterable<ChatPart>, candidates: Reference[]): AsyncGenerator<ResponseEvent> {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>): ResponseEvent => ({ type, sequence_number: sequence++, ...fields });
  let references = candidates;
  const urls = () => references.map((r) => r.url);
  // The message's content parts: those done, and the one being written.
  const done: OutputContent[] = [];
  let open: { kind: "text" | "refusal"; text: string } | null = null;
  const at = () => ({ item_id: head.messageId, output_index: 0, content_index: done.length });
  const current = (): OutputContent[] => (open ? [...done, open.kind === "text" ? outputText(open.text) : outputRefusal(open.text)] : done);

  function* close(): Generator<ResponseEvent> {
    if (!open) return;
    let part: OutputContent;
    if (open.kind === "text") {
      const annotations = flatAnnotations(citations(open.text, references));
      for (const [index, annotation] of annotations.entries()) {
        yield event("response.output_text.annotation.added", { ...at(), annotation_index: index, annotation });
      }
      part = outputText(open.text, annotations);
      yield event("response.output_text.done", { ...at(), text: open.text, logprobs: [] });
    } else {
      part = outputRefusal(open.text);
      yield event("response.refusal.done", { ...at(), refusal: open.text });
    }
    yield event("response.content_part.done", { ...at(), part });
    done.push(part);
    open = null;
  }
  function* write(kind: "text" | "refusal", delta: string): Generator<ResponseEvent> {
    if (open?.kind !== kind) {
      yield* close();
      open = { kind, text: "" };
      yield event("response.content_part.added", { ...at(), part: kind === "text" ? outputText("") : outputRefusal("") });
    }
    if (!delta) return;
    open.text += delta;
    if (kind === "text") yield event("response.output_text.delta", { ...at(), delta, logprobs: [] });
    else yield event("response.refusal.delta", { ...at(), delta });
  }

  const opening = responseObject(head, { status: "in_progress", output: [], usage: null, urlReferences: urls() });
  yield event("response.created", { response: opening });
  yield event("response.in_progress", { response: opening });
  yield event("response.output_item.added", { output_index: 0, item: messageItem(head, "in_progress", []) });

  for await (const part of parts) {
    if (part.type === "text-delta") yield* write("text", part.delta);
    else if (part.type === "refusal-delta") yield* write("refusal", part.delta);
    else if (part.type === "references") references = part.references;
    else if (part.type === "error") {
      yield event("response.failed", { response: failed(head, current(), urls(), part.error) });
      return;
    } else {
      // An empty reply is still one (empty) text part.
      if (!open && done.length === 0) yield* write("text", "");
      yield* close();
      const finish = finishStatus(part.finishReason);
      const item = messageItem(head, finish.status === "completed" ? "completed" : "incomplete", done);
      yield event("response.output_item.done", { output_index: 0, item });
      const response = responseObject(head, { ...finish, output: [item], usage: responseUsage(toUsage(part.usage)), urlReferences: urls() });
      yield event(finish.status === "completed" ? "response.completed" : "response.incomplete", { response });
      return;
    }
  }
  // Every stream ends on a terminal event, even one the engine left unfinished.
  yield event("response.failed", { response: failed(head, current(), urls(), toDocentError(new Error("completion ended without a finish part"))) });
}

/** The response as it stood when the error struck, with OpenAI's `{code, message}` error. */
function failed(head: ResponseHead, content: OutputContent[], urlReferences: string[], error: DocentError) {
  const { code, message } = errorBody(error).error;
  // Only the parts its events announced: none when the error came before the first delta.
  const output = [messageItem(head, "incomplete", content)];
  return responseObject(head, { status: "failed", output, usage: null, urlReferences, error: { code: code ?? "server_error", message } });
}
