import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { PageValidator, PageValidatorStore } from "../core/source-sync.ts";
import { storedJson } from "./stored-json.ts";

const Links = z.array(z.string());

const linksOf = (text: string | null) => storedJson(Links, text);

/** Rows written per statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const BATCH = 500;

export function createPrismaPageValidators(prisma: PrismaClient): PageValidatorStore {
  return {
    async load(sourceId) {
      const rows = await prisma.pageValidator.findMany({ where: { sourceId } });
      return new Map(rows.map((r) => [r.url, { etag: r.etag, lastModified: r.lastModified, links: linksOf(r.links), basis: r.basis } satisfies PageValidator]));
    },
    async replace(sourceId, validators) {
      const rows = [...validators].map(([url, v]) => ({
        sourceId,
        url,
        etag: v.etag,
        lastModified: v.lastModified,
        links: v.links && JSON.stringify(v.links),
        basis: v.basis,
      }));
      await prisma.$transaction(async (tx) => {
        await tx.pageValidator.deleteMany({ where: { sourceId } });
        for (let i = 0; i < rows.length; i += BATCH) await tx.pageValidator.createMany({ data: rows.slice(i, i + BATCH) });
      });
    },
  };
}
