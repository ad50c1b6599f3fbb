import { describe, expect, it } from "vitest";
import { DocentError } from "./errors.ts";
import { parseChatRequest } from "./validate-request.ts";

const ok = { model: "agent", messages: [{ role: "user", content: "hi" }] };
const fail = (body: unknown) => {
  try {
    parseChatRequest(body);
  } catch (error) {
    return error as DocentError;
  }
  throw new Error("expected a validation error");
};

describe("parseChatRequest", () => {
  it("accepts the spec's fields and common OpenAI ones, ignoring unknown ones", () => {
    const request = parseChatRequest({
      ...ok,
      stream: null,
      sources: null,
      include_references: true,
      temperature: 0.3,
      n: 1,
      stream_options: { include_usage: true },
      user: "u",
      extra: 1,
    });
    expect(request).toMatchObject({ model: "agent", include_references: true, temperature: 0.3 });
    expect("extra" in request).toBe(false);
  });

  it("accepts text-part content", () => {
    expect(parseChatRequest({ model: "agent", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }).messages).toHaveLength(1);
  });

  it.each([
    [{ ...ok, messages: [{ role: "tool", content: "x" }] }, "messages[0].role", /only the roles 'user', 'system' and 'assistant'/],
    [{ ...ok, messages: [ok.messages[0], { role: "developer", content: "x" }] }, "messages[1].role", /developer/],
    [{ messages: ok.messages }, "model", /Missing required parameter/],
    [{ model: "agent" }, "messages", /Missing required parameter/],
    [{ ...ok, messages: [] }, "messages", /at least one message/],
    [{ ...ok, sources: ["not-a-uuid"] }, "sources[0]", /UUID/],
    [{ ...ok, n: 2 }, "n", /only n = 1/],
    [{ ...ok, stream: "yes" }, "stream", /boolean/],
    [{ ...ok, temperature: 3 }, "temperature", /2/],
  ])("rejects %j naming %s", (body, param, message) => {
    const error = fail(body);
    expect(error).toBeInstanceOf(DocentError);
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
  });

  it("rejects a body that is not an object", () => {
    expect(fail([1, 2]).message).toMatch(/JSON object/);
  });
});
