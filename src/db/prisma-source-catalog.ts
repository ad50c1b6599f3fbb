import type { PrismaClient } from "@prisma/client";
import type { SourceCatalog } from "../core/source-catalog.ts";
import { bumpChanges } from "./change-counter.ts";

/** Sources in the database, each call one query (see cached-source-catalog.ts for the one servers use). Writes move the change counter. */
export function createPrismaSourceCatalog(prisma: PrismaClient): SourceCatalog {
  return {
    list: () => prisma.source.findMany({ orderBy: { name: "asc" } }),
    get: (id) => prisma.source.findUnique({ where: { id } }),
    findByName: (name) => prisma.source.findUnique({ where: { name } }),
    async upsert(source) {
      const [saved] = await prisma.$transaction([prisma.source.upsert({ where: { id: source.id }, create: source, update: source }), bumpChanges(prisma)]);
      return saved;
    },
    async remove(id) {
      const [{ count }] = await prisma.$transaction([prisma.source.deleteMany({ where: { id } }), bumpChanges(prisma)]);
      return count > 0;
    },
  };
}
