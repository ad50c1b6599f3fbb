import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { DocentError } from "../core/errors.ts";
import type { SourceCatalog, SourceInfo } from "../core/source-catalog.ts";
import { bumpChanges } from "./change-counter.ts";
import { storedJson } from "./stored-json.ts";
import { isUniqueViolation } from "./unique-violation.ts";

type Row = Omit<SourceInfo, "lastSync" | "crawl"> & { lastSync: string | null; crawlOptions: string | null };

const StoredCrawl = z.object({ maxPages: z.number().int().min(1).optional(), sitemap: z.string().optional() });

const count = z.number().int().min(0);
const StoredSummary = z.object({
  status: z.enum(["ok", "failed"]),
  trigger: z.enum(["add", "manual", "schedule"]),
  startedAt: z.string(),
  finishedAt: z.string(),
  seconds: z.number(),
  added: count,
  changed: count,
  removed: count,
  unchanged: count,
  notModified: count,
  skipped: count,
  pages: count,
  chunks: count,
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

// A summary or settings that cannot be read show as none (the defaults) rather than failing the listing.
const toInfo = ({ crawlOptions, ...row }: Row): SourceInfo => ({
  ...row,
  lastSync: storedJson(StoredSummary, row.lastSync),
  crawl: storedJson(StoredCrawl, crawlOptions),
});

/** Sources in the database, each call one query (see cached-source-catalog.ts for the one servers use). Writes move the change counter. */
export function createPrismaSourceCatalog(prisma: PrismaClient): SourceCatalog {
  return {
    list: async () => (await prisma.source.findMany({ orderBy: { name: "asc" } })).map(toInfo),
    get: async (id) => {
      const row = await prisma.source.findUnique({ where: { id } });
      return row && toInfo(row);
    },
    findByName: async (name) => {
      const row = await prisma.source.findUnique({ where: { name } });
      return row && toInfo(row);
    },
    async upsert(source) {
      try {
        const [saved] = await prisma.$transaction([prisma.source.upsert({ where: { id: source.id }, create: source, update: source }), bumpChanges(prisma)]);
        return toInfo(saved);
      } catch (error) {
        // Two processes adding one new name at once: one wins; the other says so, not with the database's dump.
        if (!isUniqueViolation(error)) throw error;
        throw new DocentError(
          "SERVICE_UNAVAILABLE",
          `A knowledge source named '${source.name}' was added by another process meanwhile; run the command again to sync it.`,
          { reason: "source_added_meanwhile", retryable: true },
        );
      }
    },
    async remove(id) {
      const [, , { count }] = await prisma.$transaction([
        prisma.pageValidator.deleteMany({ where: { sourceId: id } }),
        prisma.syncLease.deleteMany({ where: { sourceId: id } }),
        prisma.source.deleteMany({ where: { id } }),
        bumpChanges(prisma),
      ]);
      return count > 0;
    },
    async recordSync(id, summary) {
      await prisma.$transaction(async (tx) => {
        const row = await tx.source.findUnique({ where: { id }, select: { updatedAt: true } });
        if (!row) return;
        // updatedAt says when the content changed, not when it was last checked.
        await tx.source.update({
          where: { id },
          data: { lastSync: JSON.stringify(summary), updatedAt: row.updatedAt, ...(summary.status === "ok" && { lastSyncedAt: new Date(summary.finishedAt) }) },
        });
        await bumpChanges(tx);
      });
    },
    async setRefresh(id, seconds) {
      await prisma.$transaction(async (tx) => {
        const row = await tx.source.findUnique({ where: { id }, select: { updatedAt: true } });
        if (!row) return;
        await tx.source.update({ where: { id }, data: { refreshSeconds: seconds, updatedAt: row.updatedAt } });
        await bumpChanges(tx);
      });
    },
    async setCrawl(id, settings) {
      await prisma.$transaction(async (tx) => {
        const row = await tx.source.findUnique({ where: { id }, select: { updatedAt: true } });
        if (!row) return;
        await tx.source.update({ where: { id }, data: { crawlOptions: settings && JSON.stringify(settings), updatedAt: row.updatedAt } });
        await bumpChanges(tx);
      });
    },
  };
}
