import { describe, expect, it } from "vitest";
import { DocentError } from "../../core/errors.ts";
import { parseResponsesRequest } from "./parse-request.ts";
import { toChatRequest } from "./to-chat-request.ts";

const map = (body: object) => toChatRequest(parseResponsesRequest({ model: "agent", ...body }));
const renamed = (body: object, param: string, message = "x") =>
  map(body).inResponsesTerms(new DocentError("BAD_REQUEST", message, { param, reason: "r", retryAfter: 3 }));

describe("a Responses request as a chat request", () => {
  it("puts instructions first as a system message, reads developer as system and joins text parts", () => {
    const { request } = map({
      instructions: "Be brief.",
      input: [
        { role: "developer", content: "Use SQL." },
        {
          role: "user",
          content: [
            { type: "input_text", text: "a " },
            { type: "input_text", text: "b" },
          ],
        },
      ],
      text: { format: { type: "json_schema", name: "n", schema: { type: "object" }, strict: true } },
      max_output_tokens: 10,
    });
    expect(request.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "system", content: "Use SQL." },
      { role: "user", content: "a b" },
    ]);
    expect(request.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "n", description: undefined, schema: { type: "object" }, strict: true },
    });
    expect(request.max_completion_tokens).toBe(10);
  });

  it("names the engine's refusals in Responses terms, counting past the instructions", () => {
    const list = {
      instructions: "I",
      input: [
        { role: "user", content: "q" },
        { role: "user", content: "r" },
      ],
    };
    expect(renamed(list, "messages[2].content").param).toBe("input[1].content");
    expect(renamed(list, "messages[0]").param).toBe("instructions");
    expect(renamed({ input: [{ role: "user", content: "q" }] }, "messages[0].role").param).toBe("input[0].role");
    expect(renamed({ input: "q" }, "messages[0].content").param).toBe("input");
    expect(renamed({ input: "q" }, "max_completion_tokens").param).toBe("max_output_tokens");
    const format = renamed({ input: "q" }, "response_format", "response_format.json_schema.schema is bad; 'messages' too");
    expect([format.param, format.message, format.reason, format.retryAfter]).toEqual(["text.format", "text.format.schema is bad; 'input' too", "r", 3]);
    const same = new DocentError("NOT_FOUND", "No such source.", { param: "sources[0]" });
    expect(map({ input: "q" }).inResponsesTerms(same)).toBe(same);
  });
});
