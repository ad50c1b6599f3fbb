import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { generateApiKey, hashKey, keyLookup, keyMatches, looksLikeKey } from "../auth/api-key.ts";
import { badRequest } from "../core/errors.ts";
import { type ApiKeyInfo, type KeyStore, keyStatus, type NewKeyOptions } from "../core/key-store.ts";
import { bumpChanges } from "./change-counter.ts";
import { isUniqueViolation } from "./unique-violation.ts";

export type KeyRow = {
  hash: string;
  id: string;
  name: string;
  lookup: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  sourceIds: string | null;
  expiresAt: Date | null;
};

const StoredScope = z.array(z.string().min(1)).min(1);

/** The scope column is JSON text (the same in SQLite and PostgreSQL); an unreadable one fails loudly, never as "every source". */
function scopeOf(row: KeyRow): string[] | null {
  if (row.sourceIds === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.sourceIds);
  } catch {
    parsed = undefined;
  }
  const scope = StoredScope.safeParse(parsed);
  if (!scope.success) throw new Error(`API key ${row.id} has an unreadable source scope in the database.`);
  return scope.data;
}

const info = (row: KeyRow): ApiKeyInfo => ({
  id: row.id,
  name: row.name,
  prefix: row.lookup,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
  sourceIds: scopeOf(row),
  expiresAt: row.expiresAt,
});

export interface PrismaKeyStoreOptions {
  /** The clock that decides expiry and stamps times; tests move it. */
  now?: () => Date;
}

/**
 * The key of a row if it is active now, recording its use at most once a
 * minute, off the request's path. The row keeps the time recorded, so a row
 * held in memory (cached-key-store.ts) is not written on every request.
 */
export function makeActiveInfo(prisma: PrismaClient, now: () => Date) {
  return (row: KeyRow | null | undefined): ApiKeyInfo | null => {
    if (!row) return null;
    const at = now();
    if (keyStatus(row, at) !== "active") return null;
    const result = info(row);
    if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() > 60_000) {
      prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: at } }).catch(() => {});
      row.lastUsedAt = at;
    }
    return result;
  };
}

/** Every candidate row is compared, so timing does not depend on which one matches. */
export function matchingRow(presented: string, rows: readonly KeyRow[]): KeyRow | undefined {
  let match: KeyRow | undefined;
  for (const row of rows) if (keyMatches(presented, row.hash) && !match) match = row;
  return match;
}

/**
 * The first key's row id, the same in every process: two replicas that both
 * find no key both insert it, and the database keeps one (a unique id is the
 * one guard SQLite and PostgreSQL share; a count inside a transaction is not
 * one under PostgreSQL's default isolation).
 */
export const FIRST_KEY_ID = "00000000-0000-4000-8000-000000000001";

/** Keys in the database, each request one query (see cached-key-store.ts for the one servers use). Writes move the change counter. */
export function createPrismaKeyStore(prisma: PrismaClient, { now = () => new Date() }: PrismaKeyStoreOptions = {}): KeyStore {
  const activeInfo = makeActiveInfo(prisma, now);

  const insert = async (id: string, name: string, { sourceIds = null, expiresAt = null }: NewKeyOptions = {}) => {
    if (sourceIds !== null && (sourceIds.length === 0 || sourceIds.some((source) => !source))) {
      throw badRequest("A scoped key needs at least one source id; leave the scope out for every source.", "sourceIds");
    }
    const createdAt = now();
    if (expiresAt !== null && !(expiresAt.getTime() > createdAt.getTime())) throw badRequest("A key's expiry must lie in the future.", "expiresAt");
    const key = generateApiKey();
    const [row] = await prisma.$transaction([
      prisma.apiKey.create({
        data: {
          id,
          name,
          lookup: keyLookup(key),
          hash: hashKey(key),
          createdAt,
          sourceIds: sourceIds === null ? null : JSON.stringify([...new Set(sourceIds)]),
          expiresAt,
        },
      }),
      bumpChanges(prisma),
    ]);
    return { ...info(row), key };
  };

  return {
    create: (name, options) => insert(randomUUID(), name, options),
    async createFirst(name) {
      if ((await prisma.apiKey.count()) > 0) return null;
      try {
        return await insert(FIRST_KEY_ID, name);
      } catch (error) {
        // Another process made it between the count and the insert.
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
    async list() {
      return (await prisma.apiKey.findMany({ orderBy: { createdAt: "asc" } })).map(info);
    },
    async revoke(id) {
      const [{ count }] = await prisma.$transaction([
        prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now() } }),
        bumpChanges(prisma),
      ]);
      return count > 0;
    },
    async verify(presented) {
      if (!looksLikeKey(presented)) return null;
      return activeInfo(matchingRow(presented, await prisma.apiKey.findMany({ where: { lookup: keyLookup(presented) } })));
    },
    async getActive(id) {
      return activeInfo(await prisma.apiKey.findUnique({ where: { id } }));
    },
    async count() {
      return prisma.apiKey.count();
    },
  };
}
