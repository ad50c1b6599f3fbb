import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { ServedCompletion, ServedCompletionStore } from "../core/served-completions.ts";

const StoredReferences = z.array(z.object({ url: z.string(), title: z.string(), sourceId: z.string() }));
const StoredIds = z.array(z.string());

/** Records written in one statement: 13 parameters each, within SQLite's 32,766 and PostgreSQL's 65,535. */
const WRITE_CHUNK = 500;
const COLUMN_NAMES = [
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
];
const COLUMNS = COLUMN_NAMES.map((c) => `"${c}"`).join(", ");
const COLUMN_COUNT = COLUMN_NAMES.length;

/**
 * Caller and model text as both databases can store it: a lone UTF-16 surrogate (valid in a
 * JSON string, `"\ud800"`, not in UTF-8) and NUL (refused by PostgreSQL's text) become U+FFFD.
 * Before, one such question failed every batch it was written in, other keys' records with it.
 */
const storable = (text: string | null | undefined) =>
  text == null ? text : (text as unknown as { toWellFormed(): string }).toWellFormed().replaceAll("\u0000", "\ufffd");

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
      // One multi-row INSERT a chunk, written as SQL: Prisma's createMany compiles every row (300 rows
      // took 85 ms, this 16 ms; it was a tenth of docent's CPU under load). A record already written (a
      // retried batch, or a chunk that went through before a later one failed) is left as it is: it
      // may have been rated since. Chunks keep a backlog after an outage within the parameter limits.
      for (let at = 0; at < records.length; at += WRITE_CHUNK) {
        const chunk = records.slice(at, at + WRITE_CHUNK);
        const values = chunk.flatMap((r) => [
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
          storable(r.question),
          storable(r.answer),
        ]);
        // The statement as a template's parts, one before each value: this client's own runtime then
        // writes its placeholders (`?` for SQLite, `$n` for PostgreSQL). Not Prisma.sql/Prisma.join: the
        // SQLite and PostgreSQL clients are two generated runtimes, and one does not know the other's fragments.
        const strings = values.map((_, j) => (j === 0 ? `INSERT INTO "ServedCompletion" (${COLUMNS}) VALUES (` : j % COLUMN_COUNT === 0 ? "), (" : ", "));
        strings.push(`) ON CONFLICT ("id") DO NOTHING`);
        await prisma.$executeRaw(Object.assign(strings, { raw: strings }) as unknown as TemplateStringsArray, ...values);
      }
    },
    async rate(id, keyId, { rating, comment, at }) {
      const { count } = await prisma.servedCompletion.updateMany({ where: { id, keyId }, data: { rating, comment: storable(comment), ratedAt: at } });
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
