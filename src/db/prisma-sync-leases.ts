import type { PrismaClient } from "@prisma/client";
import type { SyncLeases } from "../core/source-sync.ts";
import { isUniqueViolation } from "./unique-violation.ts";

/**
 * Leases as rows: taking a free lease is an insert (the primary key lets only
 * one in), taking a lapsed one an update conditioned on its expiry, so two
 * processes, or two instances on one PostgreSQL, never both win.
 */
export function createPrismaSyncLeases(prisma: PrismaClient, now = () => new Date()): SyncLeases {
  return {
    async acquire(sourceId, holder, ttlMs) {
      const at = now();
      const expiresAt = new Date(at.getTime() + ttlMs);
      try {
        await prisma.syncLease.create({ data: { sourceId, holder, expiresAt } });
        return true;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      // Lapsed at its expiry, as holder() reads it: a retry timed to the expiry must find it free.
      const { count } = await prisma.syncLease.updateMany({ where: { sourceId, expiresAt: { lte: at } }, data: { holder, expiresAt } });
      return count === 1;
    },
    async renew(sourceId, holder, ttlMs) {
      const { count } = await prisma.syncLease.updateMany({ where: { sourceId, holder }, data: { expiresAt: new Date(now().getTime() + ttlMs) } });
      return count === 1;
    },
    async release(sourceId, holder) {
      await prisma.syncLease.deleteMany({ where: { sourceId, holder } });
    },
    async holder(sourceId) {
      const row = await prisma.syncLease.findUnique({ where: { sourceId } });
      return row && row.expiresAt > now() ? { holder: row.holder, expiresAt: row.expiresAt } : null;
    },
  };
}
