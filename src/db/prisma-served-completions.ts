import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { ServedCompletion, ServedCompletionStore } from "../core/served-completions.ts";

const StoredReferences = z.array(z.object({ url: z.string(), title: z.string(), sourceId: z.string() }));
const StoredIds = z.array(z.string());

type Row = Awaited<ReturnType<PrismaClient["servedCompletion"]["findMany"]>>[number];

const fromRow = (row: Row): ServedCompletion => ({
  ...row,
  sourceIds: StoredIds.parse(JSON.parse(row.sourceIds)),
  references: StoredReferences.parse(JSON.parse(row.references)),
  closest: StoredReferences.parse(JSON.parse(row.closest)),
  rating: row.rating === "up" || row.rating === "down" ? row.rating : null,
});

/** Served completions in the ServedCompletion table; lists are JSON text (the same in SQLite and PostgreSQL). */
export function createPrismaServedCompletions(prisma: PrismaClient): ServedCompletionStore {
  return {
    async add(records) {
      if (records.length === 0) return;
      // Two queries a batch, not one a record (Prisma compiles every query: per record it cost a quarter of a busy
      // server's CPU). A record already written (a retried batch) is left as it is: it may have been rated since.
      await prisma.$transaction(async (tx) => {
        const written = new Set(
          (await tx.servedCompletion.findMany({ where: { id: { in: records.map((r) => r.id) } }, select: { id: true } })).map((r) => r.id),
        );
        const fresh = records.filter((r) => !written.has(r.id));
        if (fresh.length === 0) return;
        await tx.servedCompletion.createMany({
          data: fresh.map((r) => ({
            ...r,
            sourceIds: JSON.stringify(r.sourceIds),
            references: JSON.stringify(r.references),
            closest: JSON.stringify(r.closest),
          })),
        });
      });
    },
    async rate(id, keyId, { rating, comment, at }) {
      const { count } = await prisma.servedCompletion.updateMany({ where: { id, keyId }, data: { rating, comment, ratedAt: at } });
      return count > 0;
    },
    async list({ since, until }) {
      const rows = await prisma.servedCompletion.findMany({
        where: { createdAt: { gte: since, ...(until ? { lt: until } : {}) } },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
      return rows.map(fromRow);
    },
    async forgetText(before) {
      const { count } = await prisma.servedCompletion.updateMany({
        where: { createdAt: { lt: before }, OR: [{ question: { not: null } }, { answer: { not: null } }, { comment: { not: null } }] },
        data: { question: null, answer: null, comment: null },
      });
      return count;
    },
  };
}
