/**
 * How deep and how many-valued a JSON text is, read without parsing it.
 * JSON.parse and zod spend about a microsecond per value (more on invalid
 * ones, for which zod builds an issue each), and 2 million nested brackets
 * take JSON.parse 0.7 s: a body within MAX_BODY_BYTES can still hold the event
 * loop, so its shape is checked first, in one linear pass (~2 ms a MB).
 */
export interface JsonShapeLimits {
  maxDepth: number;
  maxValues: number;
}

/** Generous for any real request: 1,000 messages of text parts use about 10,000 values; a schema of 16 KB, about 3,000. */
export const DEFAULT_JSON_SHAPE: JsonShapeLimits = { maxDepth: 64, maxValues: 50_000 };

/** What is over a limit (null when the text is within them, or is not JSON at all: the parser says so). */
export function jsonShapeProblem(text: string, { maxDepth, maxValues }: JsonShapeLimits = DEFAULT_JSON_SHAPE): "depth" | "values" | null {
  let depth = 0;
  // Each value is an opening bracket, a string, or follows a comma or colon (keys count as values too).
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: the next quote not escaped by an odd number of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return null;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
      values++;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return "depth";
      values++;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c) values++;
    if (values > maxValues) return "values";
  }
  return null;
}
