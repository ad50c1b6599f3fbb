import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { databaseFile, loadConfig } from "../../src/config.ts";
import { migrateDatabase } from "../../src/db/migrate-database.ts";
import { createSqliteClient } from "../../src/db/prisma-client.ts";
import { createPrismaSourceCatalog } from "../../src/db/prisma-source-catalog.ts";
import { dropDuplicates, readPage } from "../../src/ingest/ingest-documents.ts";
import { listDocuments } from "../../src/ingest/list-documents.ts";
import { openSqliteIndex } from "../../src/retrieval/embedded/sqlite-index.ts";
import { documentationDir, type EvalSource } from "../debian-docs.ts";

/**
 * A DATA_DIR holding the retrieval bench's ×N replica index (the eval sources,
 * each ingested once and written N times under distinct source ids) with its
 * catalog rows, so a server started on it serves every replica. Built once
 * into the cache and reused (delete the folder to rebuild).
 */
export async function replicaDataDir({ sourcesFile, cacheDir, replicas }: { sourcesFile: string; cacheDir: string; replicas: number }): Promise<string> {
  const dir = path.join(cacheDir, `rest-x${replicas}`);
  if (fs.existsSync(path.join(dir, "complete"))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const config = loadConfig({ DATA_DIR: dir });
  await migrateDatabase(config);
  const prisma = createSqliteClient(databaseFile(config));
  const catalog = createPrismaSourceCatalog(prisma);
  const index = openSqliteIndex(path.join(dir, "index.db"));
  const sources: EvalSource[] = JSON.parse(fs.readFileSync(sourcesFile, "utf8"));
  for (const source of sources) {
    const docs = listDocuments(documentationDir(source, cacheDir));
    const read = await Promise.all(docs.map((d) => readPage(d, "x", source.base_url)));
    const pages = dropDuplicates(read.flatMap((r) => ("page" in r ? [r.page] : []))).pages;
    for (let r = 0; r < replicas; r++) {
      const id = randomUUID();
      const totals = await index.writer.replaceSource(
        id,
        pages.map((p) => ({ ...p, chunks: p.chunks.map((c) => ({ ...c, sourceId: id })) })),
      );
      await catalog.upsert({ id, name: `${source.name} #${r}`, description: source.description, baseUrl: source.base_url, origin: "", ...totals });
    }
    process.stderr.write(`bench: ${source.name} ×${replicas} indexed\n`);
  }
  const { chunks } = index.stats();
  index.close();
  await prisma.$disconnect();
  fs.writeFileSync(path.join(dir, "complete"), `${chunks} chunks, built in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  return dir;
}
