import type { PrismaClient } from "@prisma/client";
import type { UsageStore } from "../core/usage-store.ts";

/**
 * Usage per key, day and model in the KeyUsage table: each increment is an
 * upsert that adds to the row, all of a batch in one transaction. Prisma runs
 * these as one `INSERT … ON CONFLICT DO UPDATE` (seen in its query log), so
 * writers creating the same row at once cannot collide (the contract checks
 * it). Tokens are BIGINT columns, returned as numbers.
 */
export function createPrismaUsageStore(prisma: PrismaClient): UsageStore {
  const upserts = (increments: Parameters<UsageStore["add"]>[0]) =>
    increments.map(({ keyId, day, model, servedBy, requests, promptTokens, completionTokens }) =>
      prisma.keyUsage.upsert({
        where: { keyId_day_model_servedBy: { keyId, day, model, servedBy } },
        create: { keyId, day, model, servedBy, requests, promptTokens: BigInt(promptTokens), completionTokens: BigInt(completionTokens) },
        update: {
          requests: { increment: requests },
          promptTokens: { increment: BigInt(promptTokens) },
          completionTokens: { increment: BigInt(completionTokens) },
        },
      }),
    );
  return {
    async add(increments) {
      if (increments.length === 0) return;
      await prisma.$transaction(upserts(increments));
    },
    async list({ keyId, sinceDay, untilDay }) {
      const rows = await prisma.keyUsage.findMany({
        where: { keyId, day: { gte: sinceDay, ...(untilDay ? { lte: untilDay } : {}) } },
        orderBy: [{ day: "asc" }, { keyId: "asc" }, { model: "asc" }, { servedBy: "asc" }],
      });
      return rows.map((r) => ({ ...r, promptTokens: Number(r.promptTokens), completionTokens: Number(r.completionTokens) }));
    },
  };
}
