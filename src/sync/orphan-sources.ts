import type { IndexWriter } from "../core/retriever.ts";
import type { SourceCatalog } from "../core/source-catalog.ts";
import type { SyncLeases } from "../core/source-sync.ts";

/**
 * Removes from the index the sources the catalog does not know: the index and the catalog are two
 * stores, written one after the other, so a process killed between the two writes (adding a source,
 * or removing one) leaves passages no source owns. Nothing cites them, but an unscoped search still
 * spends result slots on them. A source being added right now holds its sync lease from before its
 * passages are written until its catalog row is, so it is never taken for an orphan.
 */
export async function removeOrphanSources(deps: { catalog: SourceCatalog; writer: IndexWriter; syncLeases: Pick<SyncLeases, "holder"> }): Promise<string[]> {
  const indexed = await deps.writer.sourceIds();
  const known = new Set((await deps.catalog.list()).map((s) => s.id));
  const removed: string[] = [];
  for (const id of indexed) {
    if (known.has(id) || (await deps.syncLeases.holder(id))) continue;
    // Looked at once more: a source whose catalog row was written since the list was read is no orphan.
    if (await deps.catalog.get(id)) continue;
    await deps.writer.removeSource(id);
    removed.push(id);
  }
  return removed;
}
