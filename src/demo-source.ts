import fs from "node:fs";
import path from "node:path";
import type { AppServices } from "./app-services.ts";
import { type IngestResult, ingestDocuments } from "./ingest/ingest-documents.ts";
import { type DocumentFile, fileDocument, listDocuments } from "./ingest/list-documents.ts";

export const DEMO_SOURCE_NAME = "docent documentation";
export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");

/** The bundled documentation: README.md and docs/, served by the service itself at /docs/. */
export function bundledDocuments(root = PROJECT_ROOT): DocumentFile[] {
  const docs = fs.existsSync(path.join(root, "docs")) ? listDocuments(path.join(root, "docs")) : [];
  const readme = path.join(root, "README.md");
  return [...(fs.existsSync(readme) ? [fileDocument(readme, "README.md")] : []), ...docs];
}

/** The demo's origin: `sources sync` reads the bundled documents again rather than a folder. */
export const BUNDLED_ORIGIN = "bundled documentation";

/**
 * On a fresh install (empty catalog) the service ingests its own docs so the
 * first question gets a grounded answer. Once there, the demo source is
 * refreshed at every start, other sources or not: its pages are served by
 * this service, so its URLs follow the address it runs on (pages whose URL
 * did not change are skipped, so this costs a few file reads).
 */
export async function ensureDemoSource(services: AppServices, publicUrl: string): Promise<IngestResult | null> {
  const sources = await services.catalog.list();
  const demo = sources.find((s) => s.name === DEMO_SOURCE_NAME && s.origin === BUNDLED_ORIGIN);
  if (!demo && sources.length > 0) return null;
  const documents = bundledDocuments();
  if (documents.length === 0) return null;
  return ingestDocuments(services, {
    name: DEMO_SOURCE_NAME,
    description: "How to install, configure and call docent: its REST API, CLI, configuration and knowledge sources.",
    baseUrl: new URL("/docs/", publicUrl).toString(),
    origin: BUNDLED_ORIGIN,
    documents,
  });
}
