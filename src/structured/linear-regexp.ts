import { RE2JS } from "re2js";

/**
 * Regular expressions of caller-supplied JSON Schemas (`pattern`,
 * `patternProperties`) on RE2 (re2js, pure JS): matching time is linear in
 * the text, so `^(a|a)*$` cannot hang the server as it does on a
 * backtracking engine. What RE2 cannot run in linear time (lookaround,
 * backreferences) is refused when the schema is checked.
 *
 * Linear is per instruction of the compiled program: matching costs about
 * text length × program size, so one pattern and all of a schema's patterns
 * together have a budget of instructions (`[a-z]{1000}` alone is 1,002).
 */
export const MAX_PATTERN_CHARS = 1000;
export const MAX_PATTERN_INSTRUCTIONS = 1000;
export const MAX_SCHEMA_INSTRUCTIONS = 10_000;
/**
 * Time a schema's patterns may take to compile, together. Compiling has costs
 * no size bound catches (RE2 case-folds a Unicode class at each use: `(?i)`
 * and `\pL` 300 times take about 80 ms a pattern), and the thread that
 * compiles is shared by every caller: a schema past this is refused between
 * two patterns, rather than holding the thread to its time limit. Ordinary
 * patterns compile in microseconds.
 */
export const MAX_PATTERN_COMPILE_MS = 100;

export class PatternRefused extends Error {
  /** Refused for the time its patterns took, which depends on how busy the machine is: not a verdict to keep. */
  constructor(
    message: string,
    readonly timed = false,
  ) {
    super(message);
  }
}

/** Ajv's `code.regExp` engine; `budget` (instructions left, milliseconds of pattern compiling left) is shared by the patterns of one schema being compiled. */
export function linearRegExpEngine(budget: { left: number; ms: number }) {
  const engine = (pattern: string) => {
    if (pattern.length > MAX_PATTERN_CHARS) throw new PatternRefused(`a pattern is longer than ${MAX_PATTERN_CHARS} characters`);
    let re: RE2JS;
    const started = performance.now();
    try {
      re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (error) {
      throw new PatternRefused(
        `the pattern ${JSON.stringify(pattern.slice(0, 100))} cannot run on a linear-time regular expression engine (no lookaround or backreferences): ${(error as Error).message}`,
      );
    }
    const size = re.programSize();
    if (size > MAX_PATTERN_INSTRUCTIONS)
      throw new PatternRefused(
        `the pattern ${JSON.stringify(pattern.slice(0, 100))} is too complex (${size} instructions; at most ${MAX_PATTERN_INSTRUCTIONS})`,
      );
    budget.left -= size;
    if (budget.left < 0) throw new PatternRefused(`the schema's patterns are too complex together (at most ${MAX_SCHEMA_INSTRUCTIONS} instructions)`);
    budget.ms -= performance.now() - started;
    if (budget.ms < 0) throw new PatternRefused(`the schema's patterns are too costly to compile (more than ${MAX_PATTERN_COMPILE_MS} ms together)`, true);
    // Ajv shares compiled patterns by this key: it must tell patterns apart.
    return { test: (text: string) => re.test(text), toString: () => `re2:${pattern}` };
  };
  return Object.assign(engine, { code: "re2js" });
}
