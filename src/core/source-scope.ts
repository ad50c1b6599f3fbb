import type { SourceInfo } from "./source-catalog.ts";

/** The sources a caller's key may use: null for every source, else their ids. */
export type SourceScope = readonly string[] | null;

/** The catalog as the caller may see it; a source outside the scope is indistinguishable from one that does not exist. */
export function inScope<S extends Pick<SourceInfo, "id">>(sources: readonly S[], scope: SourceScope): S[] {
  if (scope === null) return [...sources];
  const allowed = new Set(scope.map((id) => id.toLowerCase()));
  return sources.filter((s) => allowed.has(s.id.toLowerCase()));
}
