import { Ajv2020 } from "ajv/dist/2020.js";
import type { SchemaValidator } from "../core/structured-output.ts";
import { linearRegExpEngine, MAX_SCHEMA_INSTRUCTIONS } from "./linear-regexp.ts";
import { schemaCost } from "./schema-cost.ts";

/** Compiled schemas kept; past this the Ajv instance is replaced too, since it keeps every schema it compiled. */
const CACHE_SIZE = 500;
/** Values a schema is tried on when checked: a `$ref` cycle that consumes nothing recurses without end on one of them. */
const PROBES: unknown[] = [null, true, 0, 1.5, "", "a", [], [null], {}, { a: null }];
/** Replies nested deeper than this are not validated (a schema's cost is bounded for values this deep). */
export const MAX_REPLY_DEPTH = 20;
/** The most subschemas one path of a value may be checked against (schema-cost.ts); real schemas stay far below. */
export const MAX_SCHEMA_CHECKS = 20_000;
const ENDLESS = "the schema refers to itself without end (a $ref cycle that validates nothing before recursing)";

/**
 * JSON Schema (draft 2020-12, which also reads most draft-07 schemas) through
 * Ajv. Schemas come from callers, so Ajv does not trust them: their patterns
 * run on a linear-time engine (see linear-regexp.ts), a schema that recurses
 * without consuming its input is refused, and compiled validators are cached
 * by the schema's text in a bounded cache. (The schema's size and depth are
 * limited before it gets here: src/core/input-limits.ts.)
 */
export function createAjvValidator(): SchemaValidator {
  const budget = { left: MAX_SCHEMA_INSTRUCTIONS };
  // Referenced schemas are compiled once, not inlined at every use: inlining lets a small schema of
  // $defs that refer to each other two by two compile to exponential code. Ajv's code optimisation
  // passes are skipped too: compiling is then about twice as fast, and replies are small.
  const newAjv = () =>
    new Ajv2020({ allErrors: true, strict: false, validateFormats: false, inlineRefs: false, code: { regExp: linearRegExpEngine(budget), optimize: false } });
  let ajv = newAjv();
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  const compiled = (schema: Record<string, unknown>) => {
    const key = JSON.stringify(schema);
    let fn = cache.get(key);
    if (!fn) {
      if (cache.size >= CACHE_SIZE) {
        cache.clear();
        ajv = newAjv();
      }
      budget.left = MAX_SCHEMA_INSTRUCTIONS;
      fn = ajv.compile(schema);
      cache.set(key, fn);
    }
    return fn;
  };
  return {
    checkSchema(schema) {
      try {
        if (!ajv.validateSchema(schema)) return ajv.errorsText(ajv.errors, { dataVar: "schema" });
        // Counted before anything runs: validating is exponential in the fan-out of anyOf/oneOf/allOf and $refs.
        const cost = schemaCost(schema, MAX_REPLY_DEPTH, MAX_SCHEMA_CHECKS);
        if (cost === "endless") return ENDLESS;
        if (cost === "intricate") return "its anyOf/oneOf/allOf branches and $refs are too intricate to bound what validating a value costs";
        if (cost > MAX_SCHEMA_CHECKS)
          return `its anyOf/oneOf/allOf branches and $refs fan out too far: one value could be checked against more than ${MAX_SCHEMA_CHECKS.toLocaleString("en")} subschemas`;
        const fn = compiled(schema);
        for (const probe of PROBES) fn(probe);
        return null;
      } catch (error) {
        if (error instanceof RangeError) return ENDLESS;
        return (error as Error).message;
      }
    },
    validate(schema, value) {
      if (nestedDeeperThan(value, MAX_REPLY_DEPTH)) return [`the reply nests more than ${MAX_REPLY_DEPTH} levels deep`];
      const fn = compiled(schema);
      try {
        if (fn(value)) return [];
      } catch (error) {
        if (error instanceof RangeError) return ["the reply is nested too deeply to validate"];
        throw error;
      }
      return (fn.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
    },
  };
}

/** Whether a parsed JSON value nests deeper than `limit`, walked without recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
