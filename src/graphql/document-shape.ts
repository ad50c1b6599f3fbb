import { type DocumentNode, GraphQLError, Kind, type SelectionSetNode } from "graphql";

/**
 * A field asked for again under the same name in one selection set: graphql-js
 * compares such fields pairwise to check they can be merged, so 400 repeats of
 * `sources { id }` (5.6 KB) cost 0.2–0.5 s of the server's thread in
 * validation. Clients repeat a field when fragments overlap, a few times at most.
 */
export const MAX_FIELD_REPEATS = 5;
/**
 * Fields of an operation with every fragment spread expanded: a chain of
 * fragments that each spread the next twice doubles at each link, and
 * validating it cost 0.25 s for 300 links. The full introspection query has
 * between 200 and 300.
 */
export const MAX_EXPANDED_FIELDS = 2_000;

/** Why a parsed document is refused before validation, or null. Linear in the document: fragments are measured once. */
export function documentShapeProblem(document: DocumentNode): string | null {
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  const sizes = new Map<string, number>();
  let repeated: string | null = null;
  const measure = (set: SelectionSetNode, path: Set<string>): number => {
    const names = new Map<string, number>();
    let size = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = (selection.alias ?? selection.name).value;
        const seen = (names.get(name) ?? 0) + 1;
        names.set(name, seen);
        if (seen > MAX_FIELD_REPEATS) repeated ??= name;
        size += 1 + (selection.selectionSet ? measure(selection.selectionSet, path) : 0);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        size += measure(selection.selectionSet, path);
      } else {
        const name = selection.name.value;
        // The same fragment spread again is compared with itself as a repeated field is (2,000 spreads: 0.14 s).
        const seen = (names.get(`...${name}`) ?? 0) + 1;
        names.set(`...${name}`, seen);
        if (seen > MAX_FIELD_REPEATS) repeated ??= `...${name}`;
        const fragment = fragments.get(name);
        // Unknown and cyclic spreads are validation's to report.
        if (!fragment || path.has(name)) continue;
        let known = sizes.get(name);
        if (known === undefined) {
          path.add(name);
          known = measure(fragment, path);
          path.delete(name);
          sizes.set(name, known);
        }
        size += known;
      }
      if (size > MAX_EXPANDED_FIELDS) return size;
    }
    return size;
  };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const size = measure(definition.selectionSet, new Set());
    if (repeated) return `'${repeated}' is asked for more than ${MAX_FIELD_REPEATS} times in one selection set.`;
    if (size > MAX_EXPANDED_FIELDS) return `The operation asks for more than ${MAX_EXPANDED_FIELDS} fields once its fragments are expanded.`;
  }
  return null;
}

/** The parse step's refusal, reported as GraphQL reports a document it cannot parse. */
export const shapeError = (message: string) => new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT" } });
