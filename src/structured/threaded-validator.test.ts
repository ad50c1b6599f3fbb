import { afterAll, describe, expect, it } from "vitest";
import { costlySchema } from "../../test/support/costly-schema.ts";
import { createThreadedSchemaValidator } from "./threaded-validator.ts";

describe("the schema thread", () => {
  const validator = createThreadedSchemaValidator();
  afterAll(() => validator.close());

  it("checks schemas and validates replies off the server's thread", async () => {
    expect(await validator.checkSchema({ type: "object", required: ["n"] })).toBeNull();
    expect(await validator.checkSchema({ type: "objekt" })).toMatch(/type/);
    expect(await validator.validate({ type: "object", required: ["n"] }, {})).toEqual(["/ must have required property 'n'"]);
  });

  it("compiles each draft's meta-schema before taking jobs, so a first schema is not timed with it (~100 ms, seconds on a busy machine)", async () => {
    const quick = createThreadedSchemaValidator({ timeLimitMs: 60 });
    try {
      for (const $schema of [
        undefined,
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-06/schema#",
      ]) {
        const schema = { ...($schema && { $schema }), type: "object", properties: { n: { type: "integer" } } };
        expect(await quick.checkSchema(schema), $schema ?? "2020-12").toBeNull();
      }
    } finally {
      await quick.close();
    }
  });

  it("refuses a schema whose patterns are costly to compile, and the server's thread stays free meanwhile", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    const problem = await validator.checkSchema(costlySchema("a"));
    const took = performance.now() - started;
    clearInterval(timer);
    // Refused between two patterns once they have taken 100 ms together, well before the thread's time limit.
    expect(problem).toMatch(/too costly to compile \(more than 100 ms together\)/);
    // On the server's thread the compile held every timer for its whole length; here the timer kept running.
    expect(ticks).toBeGreaterThan(took / 5 / 4);
    expect(await validator.checkSchema({ type: "string", pattern: "^a+$" })).toBeNull();
    expect(await validator.validate({ type: "string", pattern: "^a+$" }, "b")).toEqual(['/ must match pattern "^a+$"']);
  });
});
