import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { generateApiKey, hashKey, keyLookup, keyMatches, looksLikeKey } from "../auth/api-key.ts";
import type { ApiKeyInfo, KeyStore } from "../core/key-store.ts";

type Row = { id: string; name: string; lookup: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

const info = (row: Row): ApiKeyInfo => ({
  id: row.id,
  name: row.name,
  prefix: row.lookup,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
});

export function createPrismaKeyStore(prisma: PrismaClient): KeyStore {
  return {
    async create(name) {
      const key = generateApiKey();
      const row = await prisma.apiKey.create({ data: { id: randomUUID(), name, lookup: keyLookup(key), hash: hashKey(key) } });
      return { ...info(row), key };
    },
    async list() {
      return (await prisma.apiKey.findMany({ orderBy: { createdAt: "asc" } })).map(info);
    },
    async revoke(id) {
      const { count } = await prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
      return count > 0;
    },
    async verify(presented) {
      if (!looksLikeKey(presented)) return null;
      const rows = await prisma.apiKey.findMany({ where: { lookup: keyLookup(presented) } });
      // Every candidate is compared, so timing does not depend on which one matches.
      let match: (typeof rows)[number] | undefined;
      for (const row of rows) if (keyMatches(presented, row.hash) && !match) match = row;
      if (!match || match.revokedAt) return null;
      // Record use at most once a minute per key, off the request's path.
      if (!match.lastUsedAt || Date.now() - match.lastUsedAt.getTime() > 60_000) {
        prisma.apiKey.update({ where: { id: match.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
      }
      return info(match);
    },
    async get(id) {
      const row = await prisma.apiKey.findUnique({ where: { id } });
      return row ? info(row) : null;
    },
    async count() {
      return prisma.apiKey.count();
    },
  };
}
