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

/**
 * Fields merged under one response name in one selection set, whatever adds
 * them: the set itself, its inline fragments and the fragments it spreads.
 * 370 fragments that each ask `sources { id }`, spread side by side, passed
 * the per-fragment count above and cost 0.15–0.35 s each to validate. A
 * client whose fragments each ask for `id` (Relay's way) adds one per fragment.
 */
export const MAX_MERGED_FIELDS = 32;

/** A selection set measured: fields once fragments are expanded, and how many fields it merges under each response name. */
type Shape = { size: number; names: Map<string, number> };

/** Why a parsed document is refused before validation, or null. Linear in the document: fragments are measured once. */
export function documentShapeProblem(document: DocumentNode): string | null {
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  const shapes = new Map<string, Shape>();
  let repeated: string | null = null;
  let merged: string | null = null;
  const add = (names: Map<string, number>, name: string, count: number) => {
    // Capped: a doubling chain of fragments would otherwise count past any number.
    const total = Math.min((names.get(name) ?? 0) + count, MAX_MERGED_FIELDS + 1);
    names.set(name, total);
    if (total > MAX_MERGED_FIELDS) merged ??= name;
  };
  const measure = (set: SelectionSetNode, path: Set<string>): Shape => {
    const direct = new Map<string, number>();
    const shape: Shape = { size: 0, names: new Map() };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = (selection.alias ?? selection.name).value;
        const seen = (direct.get(name) ?? 0) + 1;
        direct.set(name, seen);
        if (seen > MAX_FIELD_REPEATS) repeated ??= name;
        add(shape.names, name, 1);
        shape.size += 1 + (selection.selectionSet ? measure(selection.selectionSet, path).size : 0);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const inner = measure(selection.selectionSet, path);
        shape.size += inner.size;
        for (const [name, count] of inner.names) add(shape.names, name, count);
      } else {
        const name = selection.name.value;
        // The same fragment spread again is compared with itself as a repeated field is (2,000 spreads: 0.14 s).
        const seen = (direct.get(`...${name}`) ?? 0) + 1;
        direct.set(`...${name}`, seen);
        if (seen > MAX_FIELD_REPEATS) repeated ??= `...${name}`;
        const fragment = fragments.get(name);
        // Unknown and cyclic spreads are validation's to report.
        if (!fragment || path.has(name)) continue;
        let known = shapes.get(name);
        if (known === undefined) {
          path.add(name);
          known = measure(fragment, path);
          path.delete(name);
          shapes.set(name, known);
        }
        shape.size += known.size;
        for (const [field, count] of known.names) add(shape.names, field, count);
      }
      if (shape.size > MAX_EXPANDED_FIELDS || repeated || merged) return shape;
    }
    return shape;
  };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const { size } = measure(definition.selectionSet, new Set());
    if (repeated) return `'${repeated}' is asked for more than ${MAX_FIELD_REPEATS} times in one selection set.`;
    if (merged) return `'${merged}' is asked for more than ${MAX_MERGED_FIELDS} times in one selection set once its fragments are expanded.`;
    if (size > MAX_EXPANDED_FIELDS) return `The operation asks for more than ${MAX_EXPANDED_FIELDS} fields once its fragments are expanded.`;
  }
  return null;
}

/** The parse step's refusal, reported as GraphQL reports a document it cannot parse. */
export const shapeError = (message: string) => new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT" } });
