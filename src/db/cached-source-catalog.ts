import type { PrismaClient } from "@prisma/client";
import type { SourceCatalog, SourceInfo } from "../core/source-catalog.ts";
import { createPrismaSourceCatalog } from "./prisma-source-catalog.ts";
import { serialReload } from "./serial-reload.ts";

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
  let held: { list: SourceInfo[]; byId: Map<string, SourceInfo>; byName: Map<string, SourceInfo> } | null = null;
  const reload = serialReload(async () => {
    const list = await store.list();
    held = { list, byId: new Map(list.map((s) => [s.id, s])), byName: new Map(list.map((s) => [s.name, s])) };
  });
  const current = async () => {
    if (!held) await reload();
    return held!;
  };
  const changed = async <T>(result: T) => {
    await reload();
    return result;
  };
  return {
    // A copy: callers may sort or filter what they get.
    list: async () => [...(await current()).list],
    get: async (id) => (await current()).byId.get(id) ?? null,
    findByName: async (name) => (await current()).byName.get(name) ?? null,
    upsert: async (source) => changed(await store.upsert(source)),
    remove: async (id) => changed(await store.remove(id)),
    recordSync: async (id, summary) => changed(await store.recordSync(id, summary)),
    setRefresh: async (id, seconds) => changed(await store.setRefresh(id, seconds)),
    reload,
  };
}
