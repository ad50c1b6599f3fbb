import { describe, expect, it } from "vitest";
import { ChatCompletionRequest } from "./chat-request.ts";
import { checkInputLimits, DEFAULT_INPUT_LIMITS, MAX_SCHEMA_CHARS, MAX_SCHEMA_DEPTH, schemaShapeProblem } from "./input-limits.ts";

const request = (body: object) => ChatCompletionRequest.parse({ model: "agent", ...body });

describe("checkInputLimits", () => {
  it("names the message over the limit, then the conversation", () => {
    const limits = { maxMessages: 3, maxMessageChars: 10, maxInputChars: 25 };
    const user = (content: string | Array<{ type: "text"; text: string }>) => ({ role: "user", content });
    expect(() => checkInputLimits(request({ messages: [user("x".repeat(10)), user("y".repeat(10))] }), limits)).not.toThrow();
    expect(() =>
      checkInputLimits(
        request({
          messages: [
            user("ok"),
            user([
              { type: "text", text: "123456" },
              { type: "text", text: "78901" },
            ]),
          ],
        }),
        limits,
      ),
    ).toThrow(expect.objectContaining({ code: "BAD_REQUEST", param: "messages[1].content", reason: "string_above_max_length" }));
    expect(() => checkInputLimits(request({ messages: [user("x".repeat(10)), user("x".repeat(10)), user("x".repeat(10))] }), limits)).toThrow(
      expect.objectContaining({ param: "messages", reason: "context_length_exceeded" }),
    );
    expect(() => checkInputLimits(request({ messages: [user("a"), user("b"), user("c"), user("d")] }), limits)).toThrow(
      expect.objectContaining({ param: "messages", reason: "array_above_max_length" }),
    );
  });

  it("refuses a response_format schema too large or too deep", () => {
    const ask = { messages: [{ role: "user", content: "q" }] };
    const withSchema = (schema: object) => request({ ...ask, response_format: { type: "json_schema", json_schema: { name: "s", schema } } });
    expect(() => checkInputLimits(withSchema({ type: "object" }), DEFAULT_INPUT_LIMITS)).not.toThrow();
    const big = { enum: Array.from({ length: MAX_SCHEMA_CHARS / 4 }, (_, i) => `v${i}`) };
    expect(() => checkInputLimits(withSchema(big), DEFAULT_INPUT_LIMITS)).toThrow(
      expect.objectContaining({ param: "response_format", reason: "schema_too_large" }),
    );
  });
});

describe("schemaShapeProblem", () => {
  it("measures depth and size without recursion", () => {
    let deep: unknown = {};
    for (let i = 0; i < 1_000_000; i++) deep = { a: deep };
    expect(schemaShapeProblem(deep)).toMatch(/levels deep/);
    const nested = (levels: number) => {
      let schema: unknown = { type: "string" };
      for (let i = 1; i < levels; i++) schema = { not: schema };
      return schema;
    };
    expect(schemaShapeProblem(nested(MAX_SCHEMA_DEPTH))).toBeNull();
    expect(schemaShapeProblem(nested(MAX_SCHEMA_DEPTH + 1))).toMatch(/levels deep/);
    expect(schemaShapeProblem({ properties: { a: { type: "string" } } })).toBeNull();
    expect(schemaShapeProblem({ description: "d".repeat(MAX_SCHEMA_CHARS) })).toMatch(/characters/);
  });
});
