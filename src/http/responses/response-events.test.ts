import { describe, expect, it } from "vitest";
import type { ChatPart } from "../../core/chat-part.ts";
import { DocentError } from "../../core/errors.ts";
import { parseResponsesRequest } from "./parse-request.ts";
import { responseEvents } from "./response-events.ts";
import { responseHead } from "./response-object.ts";

const head = responseHead(parseResponsesRequest({ model: "agent", input: "How do I vacuum?" }), 0);
const usage = { promptTokens: 3, completionTokens: 2, reasoningTokens: 0 };

async function eventsOf(parts: ChatPart[]) {
  async function* stream() {
    yield* parts;
  }
  const out = [];
  for await (const event of responseEvents(head, stream(), [])) out.push(event);
  return out;
}

describe("the Responses API's events", () => {
  it("announce a content part at its first delta, and a failure before any shows none", async () => {
    const failed = await eventsOf([{ type: "error", error: new DocentError("BAD_GATEWAY", "upstream went away") }]);
    expect(failed.map((e) => e.type)).toEqual(["response.created", "response.in_progress", "response.output_item.added", "response.failed"]);
    expect((failed.at(-1)!.response as { output: Array<{ content: unknown[] }> }).output[0]!.content).toEqual([]);
  });

  it("give an empty reply one empty text part, as every completed message has", async () => {
    const empty = await eventsOf([{ type: "finish", finishReason: "stop", usage }]);
    expect(empty.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(empty.find((e) => e.type === "response.output_item.done")!.item).toMatchObject({ content: [{ type: "output_text", text: "" }] });
  });
});
