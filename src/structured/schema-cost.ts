/**
 * The most subschemas a validator may check along one path of a value, from the
 * root value down to a value `depth` levels below it. JSON Schema's combinators
 * (`anyOf`, `oneOf`, `allOf`, `not`, `if`/`then`/`else`) and `$ref` apply several
 * subschemas to the same value, and each may apply several more to the value's
 * members, so a 2 KB schema of `$defs` that each refer three times to the next
 * makes one value cost 3^18 checks: the work of validating grows as the product
 * of these fan-outs, like a backtracking regular expression's. This bound is
 * what the caller's schema is refused by (see ajv-validator.ts), counted
 * without running anything, in time linear in the schema's size times `depth`.
 * Over `limit` it answers Infinity; a subschema that applies to the same value
 * again (through `$ref`s, consuming nothing) answers "endless"; a schema whose
 * count would take more than `budget` steps answers "intricate"; one with a
 * reference it cannot follow (or an `$id` below its root) answers "unresolved".
 */
export function schemaCost(root: unknown, depth: number, limit: number, budget = ANALYSIS_BUDGET): number | "endless" | "intricate" | "unresolved" {
  let steps = 0;
  const anchors = new Map<string, unknown>();
  // A `$id` below the root moves the base of the references inside it: not followed here, so refused.
  if (!collectAnchors(root, anchors)) return "unresolved";
  const rootId = isObject(root) && typeof root.$id === "string" ? root.$id.replace(/#$/, "") : null;
  const resolve = (raw: unknown): unknown => {
    if (typeof raw !== "string") throw new Unresolved();
    const ref = rootId && raw.startsWith(rootId) && (raw.length === rootId.length || raw[rootId.length] === "#") ? raw.slice(rootId.length) || "#" : raw;
    const found = ref === "#" ? root : ref.startsWith("#/") ? pointer(root, ref.slice(2)) : ref.startsWith("#") ? anchors.get(ref.slice(1)) : undefined;
    // A reference this count cannot follow could lead anywhere: the schema is refused rather than counted low.
    if (found === undefined) throw new Unresolved();
    return found;
  };

  const same = new Map<object, unknown[]>();
  const sameOf = (s: Record<string, unknown>) => {
    let found = same.get(s);
    if (!found) {
      found = [];
      for (const key of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(s[key])) found.push(...(s[key] as unknown[]));
      for (const key of ["not", "if", "then", "else"]) if (key in s) found.push(s[key]);
      for (const key of ["$ref", "$dynamicRef", "$recursiveRef"]) if (key in s) found.push(resolve(key === "$recursiveRef" ? "#" : s[key]));
      for (const key of ["dependentSchemas", "dependencies"]) if (isObject(s[key])) found.push(...Object.values(s[key]).filter(isObject));
      same.set(s, found);
    }
    return found;
  };
  /**
   * The subschemas a member meets, by which members: `p:name` a named property, `*o` any
   * property (patternProperties, which may add to a named one), `+o` a property no other
   * keyword names (additionalProperties, unevaluatedProperties), `k` a property's name;
   * `i:n` the nth item, `*a` any item (contains), `+a` items past the tuple. An object
   * member and an array member are never the same value.
   */
  const slotsOf = (s: Record<string, unknown>): Array<[string, unknown]> => {
    const slots: Array<[string, unknown]> = [];
    if (isObject(s.properties)) for (const [name, child] of Object.entries(s.properties)) slots.push([`p:${name}`, child]);
    if (isObject(s.patternProperties)) for (const child of Object.values(s.patternProperties)) slots.push(["*o", child]);
    for (const key of ["additionalProperties", "unevaluatedProperties"]) if (key in s) slots.push(["+o", s[key]]);
    if ("propertyNames" in s) slots.push(["k", s.propertyNames]);
    const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
    for (const [i, child] of tuple.entries()) slots.push([`i:${i}`, child]);
    if ("items" in s && !Array.isArray(s.items)) slots.push(["+a", s.items]);
    for (const key of ["additionalItems", "unevaluatedItems"]) if (key in s) slots.push(["+a", s[key]]);
    if ("contains" in s) slots.push(["*a", s.contains]);
    return slots;
  };

  // Checks applied to one value: the subschema itself and, through combinators and $refs, every one it brings in.
  const counted = new Map<object, number>();
  const counting = new Set<object>();
  const here = (s: unknown): number => {
    if (!isObject(s)) return 1;
    const known = counted.get(s);
    if (known !== undefined) return known;
    if (counting.has(s)) throw new Endless();
    counting.add(s);
    // Keywords whose check is a list: each name required, each enum entry compared.
    let total = 1 + listLength(s.required) + listLength(s.enum) + listLength(s.dependentRequired && Object.values(s.dependentRequired).flat());
    for (const child of sameOf(s)) total += here(child);
    counting.delete(s);
    counted.set(s, total);
    if (total > limit) throw new TooCostly();
    return total;
  };

  // The cost below one value, by the member it passes to (`p:name`, `i:index`, or `*` for any member).
  const belowMemo = new Map<object, Map<number, Map<string, number>>>();
  const below = (s: unknown, levels: number): Map<string, number> => {
    if (!isObject(s) || levels <= 0) return new Map();
    const byLevel = belowMemo.get(s) ?? new Map<number, Map<string, number>>();
    belowMemo.set(s, byLevel);
    const known = byLevel.get(levels);
    if (known) return known;
    const sums = new Map<string, number>();
    const add = (slot: string, cost: number) => {
      if (++steps > budget) throw new Intricate();
      const total = (sums.get(slot) ?? 0) + cost;
      if (total > limit) throw new TooCostly();
      sums.set(slot, total);
    };
    for (const [slot, child] of slotsOf(s)) add(slot, path(child, levels - 1));
    for (const child of sameOf(s)) for (const [slot, cost] of below(child, levels)) add(slot, cost);
    byLevel.set(levels, sums);
    return sums;
  };
  const path = (s: unknown, levels: number): number => {
    const sums = below(s, levels);
    const anyProperty = sums.get("*o") ?? 0;
    const anyItem = sums.get("*a") ?? 0;
    // A property none names meets the pattern and the additional schemas; an item past the tuple, contains and items.
    let worst = Math.max(anyProperty + (sums.get("+o") ?? 0), anyItem + (sums.get("+a") ?? 0), sums.get("k") ?? 0);
    for (const [slot, cost] of sums) {
      if (slot.startsWith("p:")) worst = Math.max(worst, cost + anyProperty);
      else if (slot.startsWith("i:")) worst = Math.max(worst, cost + anyItem);
    }
    const total = here(s) + worst;
    if (total > limit) throw new TooCostly();
    return total;
  };

  try {
    return path(root, depth);
  } catch (error) {
    if (error instanceof TooCostly) return Number.POSITIVE_INFINITY;
    if (error instanceof Endless) return "endless";
    if (error instanceof Intricate) return "intricate";
    if (error instanceof Unresolved) return "unresolved";
    throw error;
  }
}

class TooCostly extends Error {}
class Endless extends Error {}
class Intricate extends Error {}
class Unresolved extends Error {}

/**
 * Steps the count itself may take (~60 ms): a recursive schema with hundreds of members
 * that each refer back to it needs members × members × depth steps, and is refused
 * rather than counted at length, as its compiled validator would be huge as well.
 */
const ANALYSIS_BUDGET = 250_000;

const listLength = (value: unknown) => (Array.isArray(value) ? value.length : 0);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function pointer(root: unknown, path: string): unknown {
  let node = root;
  for (const raw of path.split("/")) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node) && Object.hasOwn(node, part)) node = node[part];
    else return undefined;
  }
  return node;
}

/** `$anchor` and `$dynamicAnchor` names, walked without recursion; false when a subschema below the root has an `$id`. */
function collectAnchors(root: unknown, anchors: Map<string, unknown>): boolean {
  const stack = [root];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) stack.push(...node);
    else if (isObject(node)) {
      if (node !== root && typeof node.$id === "string") return false;
      for (const key of ["$anchor", "$dynamicAnchor"]) if (typeof node[key] === "string" && !anchors.has(node[key])) anchors.set(node[key], node);
      stack.push(...Object.values(node));
    }
  }
  return true;
}
