import { Ajv, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import draft06 from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import { linearRegExpEngine, MAX_PATTERN_COMPILE_MS, MAX_SCHEMA_INSTRUCTIONS, PatternRefused } from "./linear-regexp.ts";
import { schemaCost } from "./schema-cost.ts";

/**
 * Compiled schemas kept; past this the Ajv instance is replaced too, since it keeps every
 * schema it compiled. A 16 KB schema's validator holds a few MB: 64 of them stay well
 * within the heap.
 */
const CACHE_SIZE = 64;
/** Values a schema is tried on when checked: a `$ref` cycle that consumes nothing recurses without end on one of them. */
const PROBES: unknown[] = [null, true, 0, 1.5, "", "a", [], [null], {}, { a: null }];
/** Replies nested deeper than this are not validated (a schema's cost is bounded for values this deep). */
export const MAX_REPLY_DEPTH = 20;
/** The most subschemas one path of a value may be checked against (schema-cost.ts); real schemas stay far below. */
export const MAX_SCHEMA_CHECKS = 5_000;
/** The most checks one reply may cost: its values times the schema's cost per path (about 2 µs a check). */
export const MAX_REPLY_CHECKS = 250_000;
/** The most characters of a reply's strings times the schema's cost per path (patterns run once per subschema reached). */
export const MAX_REPLY_CHARACTER_CHECKS = 20_000_000;
const ENDLESS = "the schema refers to itself without end (a $ref cycle that validates nothing before recursing)";

/** Checking and validating with JSON Schema, synchronously: what the schema thread runs (see threaded-validator.ts). */
export interface SchemaChecks {
  /** Null when `schema` is valid JSON Schema, else why not. */
  checkSchema(schema: Record<string, unknown>): string | null;
  /** Problems of `value` against `schema`, empty when it conforms. */
  validate(schema: Record<string, unknown>, value: unknown): string[];
}

/** The drafts a schema may declare in `$schema` (without one, 2020-12), by their meta-schema URI without scheme or `#`. */
const DRAFTS = {
  "json-schema.org/draft/2020-12/schema": "2020-12",
  "json-schema.org/draft/2019-09/schema": "2019-09",
  "json-schema.org/draft-07/schema": "draft-07",
  "json-schema.org/draft-06/schema": "draft-06",
} as const;
type Draft = (typeof DRAFTS)[keyof typeof DRAFTS];

/** The draft `$schema` declares, or why it cannot be used; draft-06 and -07 are read by one Ajv class. */
function draftOf(schema: Record<string, unknown>): Draft | { problem: string } {
  const declared = schema.$schema;
  if (declared === undefined) return "2020-12";
  const draft = typeof declared === "string" ? DRAFTS[declared.replace(/^https?:\/\//, "").replace(/#$/, "") as keyof typeof DRAFTS] : undefined;
  return (
    draft ?? {
      problem: `$schema ${JSON.stringify(declared).slice(0, 100)} is not a JSON Schema draft docent reads: use draft-06, draft-07, 2019-09 or 2020-12 (the default)`,
    }
  );
}

/**
 * JSON Schema (2020-12 unless `$schema` names draft-06, draft-07 or 2019-09:
 * zod-to-json-schema and the AI SDK send draft-07) through Ajv. Schemas come
 * from callers, so Ajv does not trust them: their patterns run on a
 * linear-time engine (see linear-regexp.ts), a schema that recurses without
 * consuming its input is refused, each is compiled without registering its
 * `$id` (one caller's `$id` must not refuse another's schema, nor tell them it
 * was used), and each schema's verdict and compiled validator are cached by
 * its text in a bounded cache. (The schema's size and depth are limited
 * before it gets here: src/core/input-limits.ts.)
 */
export function createAjvValidator({ patternCompileMs = MAX_PATTERN_COMPILE_MS }: { patternCompileMs?: number } = {}): SchemaChecks {
  const budget = { left: MAX_SCHEMA_INSTRUCTIONS, ms: patternCompileMs };
  // Referenced schemas are compiled once, not inlined at every use: inlining lets a small schema of
  // $defs that refer to each other two by two compile to exponential code. Ajv's code optimisation
  // passes are skipped too: compiling is then about twice as fast, and replies are small.
  // Every error (for the repair prompt): their number is bounded with the checks, since schema-cost.ts
  // counts a `required` or `enum` by its length (2,500 names reached 2,000 times made millions of errors).
  const options: Options = {
    allErrors: true,
    strict: false,
    validateFormats: false,
    inlineRefs: false,
    code: { regExp: linearRegExpEngine(budget), optimize: false },
  };
  const newAjv = (draft: Draft, opts: Options) => {
    if (draft === "2020-12") return new Ajv2020(opts);
    if (draft === "2019-09") return new Ajv2019(opts);
    const ajv = new Ajv(opts);
    if (opts.meta !== false) ajv.addMetaSchema(draft06);
    return ajv;
  };
  // Two instances a draft. One checks schemas against the draft's meta-schema, compiled once (~100 ms) and kept: it
  // compiles nothing of a caller's. The other compiles callers' schemas and is replaced with the cache (its code and
  // patterns stay in the instance: ~200 KB a schema), needing no meta-schema of its own, so replacing it costs nothing.
  const metaInstances = new Map<Draft, Ajv | Ajv2019 | Ajv2020>();
  let instances = new Map<Draft, Ajv | Ajv2019 | Ajv2020>();
  const metaFor = (draft: Draft) => {
    let ajv = metaInstances.get(draft);
    if (!ajv) metaInstances.set(draft, (ajv = newAjv(draft, options)));
    return ajv;
  };
  const ajvFor = (draft: Draft) => {
    let ajv = instances.get(draft);
    if (!ajv) instances.set(draft, (ajv = newAjv(draft, { ...options, meta: false, validateSchema: false })));
    return ajv;
  };
  // Each schema's verdict and compiled validator, by the schema's text, in one bounded cache.
  const cache = new Map<string, Verdict>();
  const verdict = (schema: Record<string, unknown>) => {
    const key = JSON.stringify(schema);
    let known = cache.get(key);
    if (!known) {
      if (cache.size >= CACHE_SIZE) {
        cache.clear();
        instances = new Map();
      }
      known = judge(schema);
      // A refusal for time taken may not hold on a quieter moment: judged again next time.
      if (!known.timed) cache.set(key, known);
    }
    return known;
  };
  const judge = (declared: Record<string, unknown>): Verdict => {
    const draft = draftOf(declared);
    if (typeof draft === "object") return { problem: draft.problem, perPath: 0 };
    // The instances are the draft's: `$schema` is left out, so any spelling of the draft's URI reads the same.
    const { $schema: _draft, ...schema } = declared;
    try {
      const meta = metaFor(draft);
      if (!meta.validateSchema(schema)) return { problem: meta.errorsText(meta.errors, { dataVar: "schema" }), perPath: 0 };
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
      budget.left = MAX_SCHEMA_INSTRUCTIONS;
      budget.ms = patternCompileMs;
      // One spelling per reference: Ajv compiles `#/$defs/a` and `#/%24defs/a`… once each.
      const canonical = canonicalRefs(schema) as Record<string, unknown>;
      let fn: ValidateFunction;
      const ajv = ajvFor(draft);
      try {
        fn = ajv.compile(canonical);
      } finally {
        // Ajv keeps a compiled schema's `$id` as a name for every later schema: forgotten at once, the compiled validator keeps what it needs.
        // By the schema object: Ajv then normalises the `$id` as it did when it kept it (`…/s#` is kept as `…/s`).
        if (typeof canonical.$id === "string") ajv.removeSchema(canonical);
      }
      for (const probe of PROBES) fn(probe);
      // uniqueItems compares every pair of items.
      return { problem: null, perPath: cost, pairwise: JSON.stringify(schema).includes('"uniqueItems":true'), fn };
    } catch (error) {
      if (error instanceof RangeError) return { problem: ENDLESS, perPath: 0 };
      return { problem: (error as Error).message, perPath: 0, timed: error instanceof PatternRefused && error.timed };
    }
  };
  return {
    checkSchema: (schema) => verdict(schema).problem,
    validate(schema, value) {
      const size = measure(value, MAX_REPLY_DEPTH);
      if (size === "too deep") return [`the reply nests more than ${MAX_REPLY_DEPTH} levels deep`];
      // Each value of the reply meets at most `perPath` subschemas: the whole check is bounded by their product.
      const { problem, perPath, pairwise, fn } = verdict(schema);
      if (problem || !fn) return [`the schema cannot be used: ${problem}`];
      const checks = size.nodes * perPath + (pairwise ? (size.nodes * size.nodes) / 2 : 0);
      if (checks > MAX_REPLY_CHECKS || size.characters * perPath > MAX_REPLY_CHARACTER_CHECKS)
        return [`the reply is too large (${size.nodes} values, ${size.characters} characters) to check against this schema`];
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

/** What checking a schema concluded; `fn`, its compiled validator, when it can be used. */
type Verdict = { problem: string | null; perPath: number; pairwise?: boolean; fn?: ValidateFunction; timed?: boolean };

/** A parsed JSON value's values (itself included) and the characters of its strings and names, or "too deep" past `limit` levels; walked without recursion. */
function measure(value: unknown, limit: number): { nodes: number; characters: number } | "too deep" {
  const stack: Array<[unknown, number]> = [[value, 0]];
  let nodes = 0;
  let characters = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    nodes++;
    if (typeof node === "string") characters += node.length;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= limit) return "too deep";
    for (const [name, child] of Object.entries(node)) {
      characters += name.length;
      stack.push([child, depth + 1]);
    }
  }
  return { nodes, characters };
}

/** The schema with every `$ref`/`$dynamicRef` JSON pointer spelled one way (each segment decoded, then encoded again). */
function canonicalRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(canonicalRefs);
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, child]) => [
      key,
      (key === "$ref" || key === "$dynamicRef") && typeof child === "string" ? canonicalPointer(child) : canonicalRefs(child),
    ]),
  );
}

function canonicalPointer(ref: string): string {
  const hash = ref.indexOf("#/");
  if (hash < 0) return ref;
  try {
    const segments = ref
      .slice(hash + 2)
      .split("/")
      .map((segment) => encodeURIComponent(decodeURIComponent(segment)).replace(/%7E/g, "~"));
    return `${ref.slice(0, hash)}#/${segments.join("/")}`;
  } catch {
    return ref;
  }
}
