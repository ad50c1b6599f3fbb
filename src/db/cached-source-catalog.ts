import type { PrismaClient } from "@prisma/client";
import type { SourceCatalog } from "../core/source-catalog.ts";
import { heldInMemory } from "./held-in-memory.ts";
import { createPrismaSourceCatalog } from "./prisma-source-catalog.ts";

export type CachedSourceCatalog = SourceCatalog & {
  /** Reads every source again (the change counter moved: another process changed one). */
  reload(): Promise<void>;
};

/**
 * The catalog held in memory: every request lists it, so reading it costs no
 * query. Read again once this process has changed it, before `upsert`/`remove`
 * return, and on `reload` (see change-counter.ts).
 */
export function createCachedSourceCatalog(prisma: PrismaClient): CachedSourceCatalog {
  const store = createPrismaSourceCatalog(prisma);
  const { reload, current, changed } = heldInMemory(async () => {
    const list = await store.list();
    return { list, byId: new Map(list.map((s) => [s.id, s])), byName: new Map(list.map((s) => [s.name, s])) };
  });
  return {
    // A copy: callers may sort or filter what they get.
    list: async () => [...(await current()).list],
    get: async (id) => (await current()).byId.get(id) ?? null,
    findByName: async (name) => (await current()).byName.get(name) ?? null,
    upsert: async (source) => changed(await store.upsert(source)),
    remove: async (id) => changed(await store.remove(id)),
    recordSync: async (id, summary) => changed(await store.recordSync(id, summary)),
    setRefresh: async (id, seconds) => changed(await store.setRefresh(id, seconds)),
    setCrawl: async (id, settings) => changed(await store.setCrawl(id, settings)),
    reload,
  };
}
