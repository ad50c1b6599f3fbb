import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { ServedCompletion, ServedCompletionStore } from "../core/served-completions.ts";

const StoredReferences = z.array(z.object({ url: z.string(), title: z.string(), sourceId: z.string() }));
const StoredIds = z.array(z.string());

/** Records written in one transaction (measured: 10,000 long records took 4–6 s, past Prisma's 5 s limit). */
const WRITE_CHUNK = 500;

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
      // A chunk a transaction: a backlog after an outage (thousands of records) would outlive one
      // transaction's time limit and then fail at every later flush. Two queries a chunk, not one a
      // record (Prisma compiles every query). A record already written (a retried batch, or a chunk
      // that went through before a later one failed) is left as it is: it may have been rated since.
      for (let at = 0; at < records.length; at += WRITE_CHUNK) {
        const chunk = records.slice(at, at + WRITE_CHUNK);
        await prisma.$transaction(async (tx) => {
          const written = new Set(
            (await tx.servedCompletion.findMany({ where: { id: { in: chunk.map((r) => r.id) } }, select: { id: true } })).map((r) => r.id),
          );
          const fresh = chunk.filter((r) => !written.has(r.id));
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
      }
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
