import fs from "node:fs";
import path from "node:path";
import type { AppServices } from "./app-services.ts";
import { ingestDocuments, type IngestResult } from "./ingest/ingest-documents.ts";
import { fileDocument, listDocuments, type DocumentFile } from "./ingest/list-documents.ts";

export const DEMO_SOURCE_NAME = "docent documentation";
export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");

/** The bundled documentation: README.md and docs/, served by the service itself at /docs/. */
export function bundledDocuments(root = PROJECT_ROOT): DocumentFile[] {
  const docs = fs.existsSync(path.join(root, "docs")) ? listDocuments(path.join(root, "docs")) : [];
  const readme = path.join(root, "README.md");
  return [...(fs.existsSync(readme) ? [fileDocument(readme, "README.md")] : []), ...docs];
}

/**
 * On a fresh install (empty catalog) the service ingests its own docs so the
 * first question gets a grounded answer. If the demo source is the only one,
 * it is refreshed so its URLs follow the address the service runs on.
 */
export async function ensureDemoSource(services: AppServices, publicUrl: string): Promise<IngestResult | null> {
  const sources = await services.catalog.list();
  const onlyDemo = sources.length === 1 && sources[0]!.name === DEMO_SOURCE_NAME;
  if (sources.length > 0 && !onlyDemo) return null;
  const documents = bundledDocuments();
  if (documents.length === 0) return null;
  return ingestDocuments(services, {
    name: DEMO_SOURCE_NAME,
    description: "How to install, configure and call docent: its REST API, CLI, configuration and knowledge sources.",
    baseUrl: new URL("/docs/", publicUrl).toString(),
    origin: "bundled documentation",
    documents,
  });
}
