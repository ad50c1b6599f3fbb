import type { PrismaClient } from "@prisma/client";
import { keyLookup, looksLikeKey } from "../auth/api-key.ts";
import type { ApiKeyInfo, KeyStore } from "../core/key-store.ts";
import { heldInMemory } from "./held-in-memory.ts";
import { createPrismaKeyStore, type KeyRow, makeActiveInfo, matchingRow, type PrismaKeyStoreOptions } from "./prisma-key-store.ts";

export type CachedKeyStore = KeyStore & {
  /** Reads every key again (the change counter moved: another process changed one). */
  reload(): Promise<void>;
};

/**
 * The Prisma key store with every key held in memory, so checking a request's
 * key is a map lookup and a hash, not a query. Keys are read again once this
 * process has changed one, before `create`/`revoke` return (a revoked key is
 * refused here at once), and on `reload` (see change-counter.ts).
 */
export function createCachedKeyStore(prisma: PrismaClient, options: PrismaKeyStoreOptions = {}): CachedKeyStore {
  const store = createPrismaKeyStore(prisma, options);
  const activeInfo = makeActiveInfo(prisma, options.now ?? (() => new Date()));
  const { reload, current, changed } = heldInMemory(async () => {
    const rows = await prisma.apiKey.findMany();
    const byLookup = new Map<string, KeyRow[]>();
    for (const row of rows) byLookup.set(row.lookup, [...(byLookup.get(row.lookup) ?? []), row]);
    return { byLookup, byId: new Map(rows.map((r) => [r.id, r])) };
  });

  return {
    ...store,
    create: async (name, keyOptions) => changed(await store.create(name, keyOptions)),
    createFirst: async (name) => changed(await store.createFirst(name)),
    revoke: async (id) => changed(await store.revoke(id)),
    async verify(presented): Promise<ApiKeyInfo | null> {
      if (!looksLikeKey(presented)) return null;
      return activeInfo(matchingRow(presented, (await current()).byLookup.get(keyLookup(presented)) ?? []));
    },
    async getActive(id) {
      return activeInfo((await current()).byId.get(id));
    },
    reload,
  };
}
