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
export const MAX_SCHEMA_CHECKS = 5_000;
/** The most checks one reply may cost: its values times the schema's cost per path (about 2 µs a check). */
export const MAX_REPLY_CHECKS = 250_000;
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
  // What checkSchema concluded, and each schema's cost per path, by the schema's text (bounded like the compiled cache).
  const verdicts = new Map<string, { problem: string | null; perPath: number }>();
  const verdict = (schema: Record<string, unknown>) => {
    const key = JSON.stringify(schema);
    let known = verdicts.get(key);
    if (!known) {
      if (verdicts.size >= CACHE_SIZE) verdicts.clear();
      known = judge(schema);
      verdicts.set(key, known);
    }
    return known;
  };
  const judge = (schema: Record<string, unknown>): { problem: string | null; perPath: number } => {
    try {
      if (!ajv.validateSchema(schema)) return { problem: ajv.errorsText(ajv.errors, { dataVar: "schema" }), perPath: 0 };
      // Counted before anything runs: validating is exponential in the fan-out of anyOf/oneOf/allOf and $refs.
      const cost = schemaCost(schema, MAX_REPLY_DEPTH, MAX_SCHEMA_CHECKS);
      if (cost === "endless") return { problem: ENDLESS, perPath: 0 };
      if (cost === "intricate")
        return { problem: "its anyOf/oneOf/allOf branches and $refs are too intricate to bound what validating a value costs", perPath: 0 };
      if (cost === "unresolved")
        return { problem: "it has a $ref that does not point into the schema itself (as #/$defs/… or #anchor), or an $id below its root", perPath: 0 };
      if (cost > MAX_SCHEMA_CHECKS)
        return {
          problem: `its anyOf/oneOf/allOf branches and $refs fan out too far: one value could be checked against more than ${MAX_SCHEMA_CHECKS.toLocaleString("en")} subschemas`,
          perPath: 0,
        };
      const fn = compiled(schema);
      for (const probe of PROBES) fn(probe);
      return { problem: null, perPath: cost };
    } catch (error) {
      if (error instanceof RangeError) return { problem: ENDLESS, perPath: 0 };
      return { problem: (error as Error).message, perPath: 0 };
    }
  };
  return {
    checkSchema: (schema) => verdict(schema).problem,
    validate(schema, value) {
      const nodes = countNodes(value, MAX_REPLY_DEPTH);
      if (nodes === "too deep") return [`the reply nests more than ${MAX_REPLY_DEPTH} levels deep`];
      // Each value of the reply meets at most `perPath` subschemas: the whole check is bounded by their product.
      const { problem, perPath } = verdict(schema);
      if (problem) return [`the schema cannot be used: ${problem}`];
      if (nodes * perPath > MAX_REPLY_CHECKS)
        return [`the reply has too many values (${nodes}) to check against this schema (at most ${MAX_REPLY_CHECKS.toLocaleString("en")} checks)`];
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

/** How many values a parsed JSON value holds (itself included), or "too deep" past `limit` levels; walked without recursion. */
function countNodes(value: unknown, limit: number): number | "too deep" {
  const stack: Array<[unknown, number]> = [[value, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    nodes++;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= limit) return "too deep";
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return nodes;
}
