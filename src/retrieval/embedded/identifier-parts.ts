/**
 * The words inside code identifiers, so a question about a "thread pool"
 * finds `ThreadPoolExecutor` and "read file" finds `readFileSync`. The
 * tokenizer already splits at `_`, `.` and `-`; camelCase is split here.
 */
export function identifierParts(text: string): string {
  const parts = new Set<string>();
  for (const match of text.matchAll(/\b[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+|[A-Z]+(?![a-z]))+\b/g)) {
    for (const part of match[0].split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) parts.add(part.toLowerCase());
  }
  return [...parts].join(" ");
}
