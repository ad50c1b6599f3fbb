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
 * them: the set itself, its inline fragments and the fragments it spreads,
 * and at depth every field merged with it (graphql-js compares their
 * sub-selections together, so 8 copies at each of three levels cost 8×8×8).
 * 370 fragments that each ask `sources { id }`, spread side by side, cost
 * 0.15–0.35 s each to validate; three levels of 8 cost 0.27–0.63 s. A client
 * whose fragments each ask for `id` (Relay's way) adds one per fragment.
 */
export const MAX_MERGED_FIELDS = 32;
const MAX_MERGE_DEPTH = 128;
/** Fields visited while merging (each expanded field once per operation, plus what a cyclic fragment repeats before validation refuses it). */
const MERGE_BUDGET = 20_000;

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
    const budget = { left: MERGE_BUDGET };
    const merged = mergedOverflow([definition.selectionSet], fragments, budget);
    if (budget.left < 0) return `The operation asks for more than ${MAX_EXPANDED_FIELDS} fields once its fragments are expanded.`;
    if (merged) return `'${merged}' is asked for more than ${MAX_MERGED_FIELDS} times in one selection set once its fragments are expanded.`;
  }
  return null;
}

/**
 * The first response name under which more than MAX_MERGED_FIELDS fields are
 * merged, collecting fields as GraphQL does (through inline fragments and
 * spreads) and then each name's sub-selections together, level by level.
 */
function mergedOverflow(sets: readonly SelectionSetNode[], fragments: Map<string, SelectionSetNode>, budget: { left: number }, depth = 0): string | null {
  // Deeper than any real query: only a cyclic fragment gets here, which validation refuses.
  if (depth > MAX_MERGE_DEPTH) return null;
  const counts = new Map<string, number>();
  const below = new Map<string, SelectionSetNode[]>();
  let over: string | null = null;
  const collect = (set: SelectionSetNode, path: Set<string>) => {
    for (const selection of set.selections) {
      if (over || --budget.left < 0) return;
      if (selection.kind === Kind.FIELD) {
        const name = (selection.alias ?? selection.name).value;
        const count = (counts.get(name) ?? 0) + 1;
        counts.set(name, count);
        if (count > MAX_MERGED_FIELDS) over = name;
        if (!selection.selectionSet) continue;
        const sub = below.get(name);
        if (sub) sub.push(selection.selectionSet);
        else below.set(name, [selection.selectionSet]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet, path);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || path.has(name)) continue;
        path.add(name);
        collect(fragment, path);
        path.delete(name);
      }
    }
  };
  for (const set of sets) collect(set, new Set());
  if (over || budget.left < 0) return over;
  for (const sub of below.values()) {
    const inner = mergedOverflow(sub, fragments, budget, depth + 1);
    if (inner || budget.left < 0) return inner;
  }
  return null;
}

/** The parse step's refusal, reported as GraphQL reports a document it cannot parse. */
export const shapeError = (message: string) => new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT" } });
