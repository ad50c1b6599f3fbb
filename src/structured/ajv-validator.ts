import { Ajv2020 } from "ajv/dist/2020.js";
import type { SchemaValidator } from "../core/structured-output.ts";
import { linearRegExpEngine, MAX_SCHEMA_INSTRUCTIONS } from "./linear-regexp.ts";

/** Compiled schemas kept; past this the Ajv instance is replaced too, since it keeps every schema it compiled. */
const CACHE_SIZE = 500;
/** Values a schema is tried on when checked: a `$ref` cycle that consumes nothing recurses without end on one of them. */
const PROBES: unknown[] = [null, true, 0, 1.5, "", "a", [], [null], {}, { a: null }];

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
        const fn = compiled(schema);
        for (const probe of PROBES) fn(probe);
        return null;
      } catch (error) {
        if (error instanceof RangeError) return "the schema refers to itself without end (a $ref cycle that validates nothing before recursing)";
        return (error as Error).message;
      }
    },
    validate(schema, value) {
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
