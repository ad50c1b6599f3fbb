import { describe, expect, it } from "vitest";
import { checkStructuredReply, structuredFormat } from "../core/structured-output.ts";
import { createAjvValidator } from "./ajv-validator.ts";

const validator = createAjvValidator();

describe("JSON Schema validation", () => {
  it("accepts valid schemas and explains invalid ones", () => {
    expect(validator.checkSchema({ type: "object", properties: { a: { type: "string" } } })).toBeNull();
    expect(validator.checkSchema({ type: "objekt" })).toMatch(/type/);
    expect(validator.checkSchema({ properties: { a: { minLength: -1 } } })).toMatch(/minLength/);
  });

  it("checks replies: JSON first, then the schema", () => {
    const format = structuredFormat({ type: "json_schema", json_schema: { name: "x", schema: { type: "object", required: ["n"], properties: { n: { type: "integer" } } } } })!;
    expect(checkStructuredReply('{"n": 1}', format, validator)).toEqual([]);
    expect(checkStructuredReply('{"n": "one"}', format, validator)).toEqual(["/n must be integer"]);
    expect(checkStructuredReply("{n: 1}", format, validator)[0]).toMatch(/not valid JSON/);
    const object = structuredFormat({ type: "json_object" })!;
    expect(checkStructuredReply("[1]", object, validator)).toEqual(["the reply must be a JSON object"]);
    expect(structuredFormat({ type: "text" })).toBeNull();
  });
});
