import type { PrismaClient } from "@prisma/client";
import type { SourceCatalog } from "../core/source-catalog.ts";

export function createPrismaSourceCatalog(prisma: PrismaClient): SourceCatalog {
  return {
    list: () => prisma.source.findMany({ orderBy: { name: "asc" } }),
    get: (id) => prisma.source.findUnique({ where: { id } }),
    findByName: (name) => prisma.source.findUnique({ where: { name } }),
    upsert: (source) => prisma.source.upsert({ where: { id: source.id }, create: source, update: source }),
    async remove(id) {
      const { count } = await prisma.source.deleteMany({ where: { id } });
      return count > 0;
    },
  };
}
