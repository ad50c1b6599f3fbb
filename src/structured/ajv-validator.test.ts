import { describe, expect, it } from "vitest";
import { checkStructuredReply, structuredFormat } from "../core/structured-output.ts";
import { createAjvValidator } from "./ajv-validator.ts";

const validator = createAjvValidator();
/** The port's asynchronous shape over the same checks (the server runs them on a thread: threaded-validator.ts). */
const port = {
  checkSchema: async (s: Record<string, unknown>) => validator.checkSchema(s),
  validate: async (s: Record<string, unknown>, v: unknown) => validator.validate(s, v),
};

describe("JSON Schema validation", () => {
  it("accepts valid schemas and explains invalid ones", () => {
    expect(validator.checkSchema({ type: "object", properties: { a: { type: "string" } } })).toBeNull();
    expect(validator.checkSchema({ type: "objekt" })).toMatch(/type/);
    expect(validator.checkSchema({ properties: { a: { minLength: -1 } } })).toMatch(/minLength/);
  });

  it("checks replies: JSON first, then the schema", async () => {
    const format = structuredFormat({
      type: "json_schema",
      json_schema: { name: "x", schema: { type: "object", required: ["n"], properties: { n: { type: "integer" } } } },
    })!;
    expect(await checkStructuredReply('{"n": 1}', format, port)).toEqual([]);
    expect(await checkStructuredReply('{"n": "one"}', format, port)).toEqual(["/n must be integer"]);
    expect((await checkStructuredReply("{n: 1}", format, port))[0]).toMatch(/not valid JSON/);
    const object = structuredFormat({ type: "json_object" })!;
    expect(await checkStructuredReply("[1]", object, port)).toEqual(["the reply must be a JSON object"]);
    expect(structuredFormat({ type: "text" })).toBeNull();
  });

  it("reads the draft a schema declares: draft-07 as zod-to-json-schema and the AI SDK send it, 2019-09, 2020-12; refuses others by name", () => {
    const draft07 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { pair: { type: "array", items: [{ type: "string" }, { $ref: "#/definitions/n" }], additionalItems: false } },
      definitions: { n: { type: "integer" } },
    };
    expect(validator.checkSchema(draft07)).toBeNull();
    // Draft-07's tuple form of `items` (2020-12 reads `items` as one schema for every item).
    expect(validator.validate(draft07, { pair: ["a", 1] })).toEqual([]);
    expect(validator.validate(draft07, { pair: ["a", "b"] })).toEqual(["/pair/1 must be integer"]);
    expect(validator.validate(draft07, { pair: ["a", 1, 2] })[0]).toMatch(/must NOT have more than 2 items/);
    expect(validator.checkSchema({ $schema: "https://json-schema.org/draft-07/schema", type: "string" })).toBeNull();
    expect(validator.checkSchema({ $schema: "http://json-schema.org/draft-06/schema#", type: "string" })).toBeNull();
    expect(validator.checkSchema({ $schema: "https://json-schema.org/draft/2019-09/schema", type: "string" })).toBeNull();
    expect(validator.checkSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", prefixItems: [{ type: "string" }] })).toBeNull();
    expect(validator.checkSchema({ $schema: "http://json-schema.org/draft-04/schema#", type: "object" })).toMatch(
      /not a JSON Schema draft docent reads: use draft-06, draft-07/,
    );
    // A hostile `$schema` is named in the message, cut short.
    const hostile = validator.checkSchema({ $schema: { $ref: "x".repeat(10_000) }, type: "object" })!;
    expect(hostile).toMatch(/^\$schema \{"\$ref":"x+ is not a JSON Schema draft docent reads/);
    expect(hostile.length).toBeLessThan(250);
  });

  it("keeps no caller's $id: another schema with the same $id is read on its own", () => {
    const id = "https://example.com/schemas/reply";
    expect(validator.checkSchema({ $id: id, type: "object" })).toBeNull();
    const other = { $id: id, type: "string", $defs: { s: { minLength: 2 } }, allOf: [{ $ref: "#/$defs/s" }] };
    expect(validator.checkSchema(other)).toBeNull();
    expect(validator.validate(other, "a")[0]).toMatch(/must NOT have fewer than 2 characters/);
    expect(validator.validate(other, "ab")).toEqual([]);
    // Ajv keeps `…/reply#` as `…/reply`: forgotten the same way.
    expect(validator.checkSchema({ $id: `${id}#`, type: "object" })).toBeNull();
    expect(validator.checkSchema({ $id: `${id}#`, type: "string" })).toBeNull();
    expect(validator.checkSchema({ $id: id, type: "number" })).toBeNull();
    // A reference through the root's own $id still resolves.
    const absolute = { $id: id, type: "object", properties: { n: { $ref: `${id}#/$defs/n` } }, $defs: { n: { type: "integer" } } };
    expect(validator.checkSchema(absolute)).toBeNull();
    expect(validator.validate(absolute, { n: "x" })).toEqual(["/n must be integer"]);
  });

  it("counts only the time patterns take to compile: a large schema of ordinary properties is not refused for Ajv's own work", () => {
    // Compiling 1,500 plain properties takes Ajv well over the patterns' 100 ms on this machine; its one pattern, microseconds.
    const properties = Object.fromEntries(
      Array.from({ length: 1_500 }, (_, i) => [`p${i}`, { type: "object", properties: { a: { type: "string" }, b: { type: "integer", minimum: 0 } } }]),
    );
    const schema = { type: "object", properties: { ...properties, last: { type: "string", pattern: "^[a-z]+$" } } };
    expect(validator.checkSchema(schema)).toBeNull();
    expect(validator.validate(schema, { last: "A" })).toEqual(['/last must match pattern "^[a-z]+$"']);
  });

  it("runs caller patterns on a linear-time engine: ^(a|a)*$ against 10,000 a's and a '!' answers at once", () => {
    const schema = { type: "object", properties: { s: { type: "string", pattern: "^(a|a)*$" } }, patternProperties: { "^(x+x+)+y$": { type: "number" } } };
    expect(validator.checkSchema(schema)).toBeNull();
    expect(validator.validate(schema, { s: `${"a".repeat(10_000)}!` })).toEqual(['/s must match pattern "^(a|a)*$"']);
    expect(validator.validate(schema, { s: "aaaa", ["x".repeat(10_000)]: 1 })).toEqual([]);
    expect(validator.validate(schema, { [`${"x".repeat(10_000)}y`]: "one" })[0]).toMatch(/must be number/);
    // ECMAScript spellings RE2 reads once translated: \d, \u escapes, named groups.
    expect(validator.validate({ pattern: "^(?<year>\\d{4})-\\u00e9$" }, "2024-é")).toEqual([]);
  });

  it("refuses patterns a linear-time engine cannot run or that are too complex, and $ref cycles", () => {
    expect(validator.checkSchema({ pattern: "(?=a)b" })).toMatch(/linear-time/);
    expect(validator.checkSchema({ pattern: "(a)\\1" })).toMatch(/linear-time/);
    expect(validator.checkSchema({ pattern: "[a-z]{1000}x{100}" })).toMatch(/too complex/);
    // Counted in instructions, whatever the time they take (on a loaded machine the 100 ms budget could refuse them first).
    const patient = createAjvValidator({ patternCompileMs: 60_000 });
    expect(patient.checkSchema({ allOf: Array.from({ length: 12 }, (_, i) => ({ pattern: `[a-z]{900}${i}` })) })).toMatch(/too complex together/);
    expect(validator.checkSchema({ $ref: "#" })).toMatch(/refers to itself/);
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    expect(validator.checkSchema({ if: { type: "string" }, then: { $ref: "#" } })).toMatch(/refers to itself/);
    expect(validator.checkSchema({ type: "object", properties: { next: { $ref: "#" } } })).toBeNull();
  });

  it("refuses schemas whose combinators and $refs fan out exponentially, and keeps large ordinary ones", () => {
    const chain = (levels: number, branch: (next: string) => object) => {
      const defs: Record<string, object> = { [`d${levels}`]: { type: "string" } };
      for (let i = 0; i < levels; i++) defs[`d${i}`] = { anyOf: [0, 1, 2].map((k) => ({ ...branch(`#/$defs/d${i + 1}`), title: `branch ${k}` })) };
      return { $defs: defs, $ref: "#/$defs/d0" };
    };
    // Through members (each level any of three objects whose member `a` is the next level), then on one value.
    const member = (next: string) => ({ type: "object", properties: { a: { $ref: next } } });
    expect(validator.checkSchema(chain(12, member))).toMatch(/fan out too far/);
    const same = (next: string) => ({ $ref: next });
    expect(validator.checkSchema(chain(18, same))).toMatch(/fan out too far/);
    expect(validator.checkSchema(chain(6, same))).toBeNull();
    // A wide, ordinary schema: 3 levels of 8 properties, a union of 6 shapes at the bottom (about 15 KB as JSON).
    const leaf = { anyOf: ["string", "number", "boolean", "null", "array", "object"].map((type) => ({ type })) };
    const level = (inner: object) => ({ type: "object", properties: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}`, inner])) });
    expect(validator.checkSchema(level(level(leaf)))).toBeNull();
    // A recursive one: a tree whose children are any of two node shapes.
    const tree = {
      $defs: { node: { anyOf: [{ type: "string" }, { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } }] } },
      $ref: "#/$defs/node",
    };
    expect(validator.checkSchema(tree)).toBeNull();
  });

  it("refuses references it cannot follow rather than counting them low, and accepts the usual recursive schemas", () => {
    // By $id: a chain the count would not see.
    const byId: Record<string, object> = { d13: { $id: "d13", type: "string" } };
    for (let i = 0; i < 13; i++) byId[`d${i}`] = { $id: `d${i}`, anyOf: [0, 1, 2].map((k) => ({ $ref: `d${i + 1}`, title: `${k}` })) };
    expect(validator.checkSchema({ $defs: byId, $ref: "d0" })).toMatch(/does not point into the schema itself/);
    // A root $id and references written against it are followed.
    const rooted = { $id: "https://example.com/s", $defs: { a: { type: "string" } }, $ref: "https://example.com/s#/$defs/a" };
    expect(validator.checkSchema(rooted)).toBeNull();
    // Any JSON value: arrays of it and objects of it (items and additionalProperties never meet the same value).
    const json = {
      $defs: {
        value: {
          anyOf: [
            { type: ["string", "number", "boolean", "null"] },
            { type: "array", items: { $ref: "#/$defs/value" } },
            { type: "object", additionalProperties: { $ref: "#/$defs/value" } },
          ],
        },
      },
      $ref: "#/$defs/value",
    };
    expect(validator.checkSchema(json)).toBeNull();
    let deep: unknown = 1;
    for (let i = 0; i < 18; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(validator.validate(json, deep)).toEqual([]);
  });

  it("bounds a reply's whole check: values times the schema's cost per path", () => {
    const defs: Record<string, object> = { d6: { type: "string" } };
    for (let i = 0; i < 6; i++) defs[`d${i}`] = { anyOf: [0, 1, 2].map((k) => ({ $ref: `#/$defs/d${i + 1}`, title: `${k}` })) };
    const schema = { type: "array", items: { $ref: "#/$defs/d0" }, $defs: defs };
    expect(validator.checkSchema(schema)).toBeNull();
    const started = performance.now();
    expect(
      validator.validate(
        schema,
        Array.from({ length: 500 }, () => 0),
      )[0],
    ).toMatch(/too large \(501 values/);
    expect(performance.now() - started).toBeLessThan(200);
    expect(validator.validate(schema, ["a", "b"])).toEqual([]);
  });

  it("counts lists (required, enum) by their length, pairs of items for uniqueItems, and characters of strings", () => {
    const names = Array.from({ length: 2555 }, (_, i) => `n${i}`);
    const defs: Record<string, object> = { r0: { required: names } };
    for (let i = 1; i <= 3; i++) defs[`r${i}`] = { allOf: Array.from({ length: 13 }, () => ({ $ref: `#/$defs/r${i - 1}` })) };
    const started = performance.now();
    expect(validator.checkSchema({ $defs: defs, $ref: "#/$defs/r3" })).toMatch(/fan out too far/);
    expect(performance.now() - started).toBeLessThan(500);
    const unique = { type: "array", uniqueItems: true };
    expect(
      validator.validate(
        unique,
        Array.from({ length: 20_000 }, (_, i) => i),
      )[0],
    ).toMatch(/too large/);
    expect(validator.validate(unique, [1, 2, 3])).toEqual([]);
    const fan = { $defs: { p: { pattern: "^a+$" } }, anyOf: Array.from({ length: 40 }, (_, i) => ({ $ref: "#/$defs/p", title: `${i}` })) };
    expect(validator.validate(fan, "a".repeat(600_000))[0]).toMatch(/too large/);
    expect(validator.validate(fan, "aaa")).toEqual([]);
  });

  it("compiles one spelling of each reference: %24defs and $defs are one subschema", () => {
    const target = { type: "object", properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: "integer" }])) };
    const spellings = ["#/$defs/t", "#/%24defs/t", "#/$defs/%74", "#/%24defs/%74"];
    const schema = { $defs: { t: target }, type: "object", properties: Object.fromEntries(spellings.map((ref, i) => [`s${i}`, { $ref: ref }])) };
    expect(validator.checkSchema(schema)).toBeNull();
    expect(validator.validate(schema, { s0: { p1: 1 }, s3: { p2: "x" } })).toEqual(["/s3/p2 must be integer"]);
  });

  it("does not validate replies nested deeper than the bound the schema's cost was counted for", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 40; i++) deep = { a: deep };
    expect(validator.validate({ type: "object" }, deep)).toEqual(["the reply nests more than 20 levels deep"]);
    let fine: unknown = "x";
    for (let i = 0; i < 18; i++) fine = { a: fine };
    expect(validator.validate({ type: "object" }, fine)).toEqual([]);
  });
});
