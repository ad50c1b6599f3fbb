import type { RetrievedChunk, Retriever } from "./retriever.ts";
import type { SourceInfo } from "./source-catalog.ts";
import { tokenize } from "./terms.ts";

const GENERIC_NAME_WORDS = new Set(["documentation", "docs", "doc", "reference", "api", "manual", "guide", "the", "and", "of", "for", "library", "official"]);

/** Words of a source's name that identify it ("postgresql", "node.js" → also "node"). */
export function distinctiveNameWords(name: string): string[] {
  const words = new Set<string>();
  for (const token of tokenize(name)) {
    if (GENERIC_NAME_WORDS.has(token) || /^[\d.]+$/.test(token) || token.length < 3) continue;
    words.add(token);
    if (token.endsWith(".js")) words.add(token.slice(0, -3));
  }
  return [...words];
}

/** Sources whose name the question mentions. */
export function mentionedSources(query: string, sources: readonly SourceInfo[]): SourceInfo[] {
  const words = new Set(tokenize(query));
  return sources.filter((source) => distinctiveNameWords(source.name).some((w) => words.has(w)));
}

export interface AgentSelection {
  sources: SourceInfo[];
  chunks: RetrievedChunk[];
}

/**
 * The agent's choice of sources: named sources win; otherwise one search over
 * every source, keeping the sources whose best passage scores close to the
 * overall best (so a question about one product does not leak into another).
 */
export async function selectSources(
  query: string,
  catalog: readonly SourceInfo[],
  retrieve: Retriever,
  { limit, closeness = 0.85, maxSources = 2 }: { limit: number; closeness?: number; maxSources?: number },
): Promise<AgentSelection> {
  if (catalog.length === 0) return { sources: [], chunks: [] };
  const named = mentionedSources(query, catalog);
  const candidates = named.length > 0 ? named : catalog;
  const chunks = await retrieve({ query, sourceIds: candidates.map((s) => s.id), limit: limit * 2 });
  const best = new Map<string, number>();
  for (const chunk of chunks) best.set(chunk.sourceId, Math.max(best.get(chunk.sourceId) ?? -Infinity, chunk.score));
  const top = Math.max(...best.values());
  const chosen = [...best.entries()]
    .filter(([, score]) => score >= top * closeness)
    .sort((a, b) => b[1] - a[1])
    .slice(0, maxSources)
    .map(([id]) => id);
  const chosenSet = new Set(chosen);
  return {
    sources: candidates.filter((s) => chosenSet.has(s.id)),
    chunks: chunks.filter((c) => chosenSet.has(c.sourceId)).slice(0, limit),
  };
}
