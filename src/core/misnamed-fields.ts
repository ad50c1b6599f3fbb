import { badRequest } from "./errors.ts";

/**
 * docent's own request fields, by a stem any spelling of them holds. Unknown
 * fields are ignored (clients send other servers' extras), but one of these
 * misspelt would be ignored silently to the caller's cost: a `source` or
 * `knowledge_sources` list unread lets the agent answer from every source.
 */
const OWN_FIELDS: ReadonlyArray<readonly [stem: string, field: string, what: string]> = [
  ["source", "sources", "the knowledge sources to answer from are a list of source ids in 'sources'"],
  ["reference", "include_references", "references are asked for with 'include_references' (and always listed in url_references)"],
];

/** Refuses a top-level field that is not one of `known` but reads as one of docent's own, naming the field meant. */
export function refuseMisnamedFields(body: object, known: ReadonlySet<string>): void {
  for (const key of Object.keys(body)) {
    if (known.has(key)) continue;
    const folded = key.toLowerCase().replace(/[^a-z]/g, "");
    const own = OWN_FIELDS.find(([stem]) => folded.includes(stem));
    if (!own) continue;
    const name = key.length > 64 ? `${key.slice(0, 64)}…` : key;
    throw badRequest(`Unrecognized request argument '${name}': did you mean '${own[1]}'? ${own[2]}.`, name, "unknown_parameter");
  }
}
