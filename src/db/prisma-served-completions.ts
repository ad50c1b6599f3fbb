import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { ServedCompletion, ServedCompletionStore } from "../core/served-completions.ts";

const StoredReferences = z.array(z.object({ url: z.string(), title: z.string(), sourceId: z.string() }));
const StoredIds = z.array(z.string());

/** Records written in one statement: 13 parameters each, within SQLite's 32,766 and PostgreSQL's 65,535. */
const WRITE_CHUNK = 500;
const COLUMNS = [
  "id",
  "keyId",
  "createdAt",
  "model",
  "servedBy",
  "interface",
  "sourceIds",
  "references",
  "closest",
  "refused",
  "coverage",
  "question",
  "answer",
]
  .map((c) => `"${c}"`)
  .join(", ");

type Row = Awaited<ReturnType<PrismaClient["servedCompletion"]["findMany"]>>[number];

const fromRow = (row: Row): ServedCompletion => ({
  ...row,
  sourceIds: StoredIds.parse(JSON.parse(row.sourceIds)),
  references: StoredReferences.parse(JSON.parse(row.references)),
  closest: StoredReferences.parse(JSON.parse(row.closest)),
  rating: row.rating === "up" || row.rating === "down" ? row.rating : null,
});

/** Served completions in the ServedCompletion table; lists are JSON text (the same in SQLite and PostgreSQL). `postgres`: the client is PostgreSQL's (its placeholders are $1, $2…). */
export function createPrismaServedCompletions(prisma: PrismaClient, { postgres = false }: { postgres?: boolean } = {}): ServedCompletionStore {
  return {
    async add(records) {
      // One multi-row INSERT a chunk, written as SQL: Prisma's createMany compiles every row (300 rows
      // took 85 ms, this 16 ms; it was a tenth of docent's CPU under load). A record already written (a
      // retried batch, or a chunk that went through before a later one failed) is left as it is: it
      // may have been rated since. Chunks keep a backlog after an outage within the parameter limits.
      for (let at = 0; at < records.length; at += WRITE_CHUNK) {
        const values: unknown[] = [];
        const rows = records.slice(at, at + WRITE_CHUNK).map((r) => {
          const row = [
            r.id,
            r.keyId,
            r.createdAt,
            r.model,
            r.servedBy,
            r.interface,
            JSON.stringify(r.sourceIds),
            JSON.stringify(r.references),
            JSON.stringify(r.closest),
            r.refused,
            r.coverage,
            r.question,
            r.answer,
          ];
          const placeholders = row.map((value) => {
            values.push(value);
            return postgres ? `$${values.length}` : "?";
          });
          return `(${placeholders.join(", ")})`;
        });
        await prisma.$executeRawUnsafe(`INSERT INTO "ServedCompletion" (${COLUMNS}) VALUES ${rows.join(", ")} ON CONFLICT ("id") DO NOTHING`, ...values);
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
    async forget(before) {
      const { count } = await prisma.servedCompletion.deleteMany({ where: { createdAt: { lt: before } } });
      return count;
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
