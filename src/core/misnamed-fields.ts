import { badRequest } from "./errors.ts";

/**
 * docent's own request fields, by a word any spelling of them holds. Unknown
 * fields are ignored (clients send other servers' extras), but one of these
 * misspelt would be ignored silently to the caller's cost: a `source` or
 * `knowledge_sources` list unread lets the agent answer from every source.
 */
const OWN_FIELDS: ReadonlyArray<{ words: readonly string[]; field: string; what: string }> = [
  { words: ["source", "sources"], field: "sources", what: "the knowledge sources to answer from are a list of source ids in 'sources'" },
  {
    words: ["reference", "references", "refs"],
    field: "include_references",
    what: "references are asked for with 'include_references' (and always listed in url_references)",
  },
];

/** A name's words: `knowledge_sources`, `sourceIds`, `include-reference` → knowledge sources / source ids / include reference. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The field of docent's own that `name` (not a field the request takes) seems meant for, if any. */
export function misnamedField(name: string): { field: string; what: string } | null {
  const words = wordsOf(name.slice(0, 256));
  return OWN_FIELDS.find((own) => words.some((w) => own.words.includes(w))) ?? null;
}

/** Refuses a top-level field that is not one of `known` but reads as one of docent's own, naming the field meant. */
export function refuseMisnamedFields(body: object, known: ReadonlySet<string>): void {
  for (const key of Object.keys(body)) {
    if (known.has(key)) continue;
    const own = misnamedField(key);
    if (!own) continue;
    const name = key.length > 64 ? `${key.slice(0, 64)}…` : key;
    throw badRequest(`Unrecognized request argument '${name}': did you mean '${own.field}'? ${own.what}.`, name, "unknown_parameter");
  }
}
