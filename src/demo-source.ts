import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString as textOf } from "mdast-util-to-string";
import type { AppServices } from "./app-services.ts";
import { type IngestResult, ingestDocuments } from "./ingest/ingest-documents.ts";
import { type DocumentFile, fileDocument, listDocuments } from "./ingest/list-documents.ts";
import { underPublicUrl } from "./public-url.ts";
import { DEFAULT_LEASE_MS } from "./sync/run-sync.ts";

export const DEMO_SOURCE_NAME = "docent documentation";
export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");

/**
 * README sections written for docent's developers, not its users: how retrieval works
 * and was measured and tuned, benchmarks, how it is built, tests. Their prose quotes
 * questions about anything (a cheetah's speed, other products), so the demo source
 * leaves them out: a user's off-topic question must not be "answered" from the notes
 * about it. A user section's passage that does the same (the refusal rules' examples,
 * a sample report) is marked by the comments SKIP_START … SKIP_END and left out too.
 */
const DEVELOPER_SECTIONS = new Set(["Retrieval and the agent", "Evaluation", "Benchmark", "The fuzz bench", "How it is built", "Tests"]);
export const SKIP_START = "<!-- not in the demo source -->";
export const SKIP_END = "<!-- /not in the demo source -->";

/**
 * The README without its developer sections (each up to the next heading of its level or higher) and
 * its marked passages, both read from one Markdown parse: a mark is an HTML comment block of its own, so
 * prose or code that names it is no mark. An unclosed mark leaves the rest out (better a page too short
 * than an off-topic question answered); a cut inside one already made goes with it.
 */
export function readmeForUsers(markdown: string): string {
  const nodes = fromMarkdown(markdown).children;
  const startOf = (node: (typeof nodes)[number] | undefined) => node?.position?.start.offset ?? markdown.length;
  const isMark = (node: (typeof nodes)[number], mark: string) => node.type === "html" && node.value.trim() === mark;
  const cuts: Array<[number, number]> = [];
  nodes.forEach((node, i) => {
    const from = startOf(node);
    if (from < (cuts.at(-1)?.[1] ?? 0)) return;
    const rest = nodes.slice(i + 1);
    if (isMark(node, SKIP_START)) {
      const end = rest.find((next) => isMark(next, SKIP_END));
      cuts.push([from, end?.position?.end.offset ?? markdown.length]);
    } else if (node.type === "heading" && DEVELOPER_SECTIONS.has(textOf(node).trim())) {
      cuts.push([from, startOf(rest.find((next) => next.type === "heading" && next.depth <= node.depth))]);
    }
  });
  return cuts.reduceRight((text, [from, to]) => text.slice(0, from) + text.slice(to), markdown);
}

/** The bundled documentation: README.md (for users) and docs/, served by the service itself at /docs/. */
export function bundledDocuments(root = PROJECT_ROOT): DocumentFile[] {
  const docs = fs.existsSync(path.join(root, "docs")) ? listDocuments(path.join(root, "docs")) : [];
  const file = path.join(root, "README.md");
  const readme = fileDocument(file, "README.md");
  const forUsers: DocumentFile = { ...readme, read: async () => Buffer.from(readmeForUsers((await readme.read()).toString("utf8"))) };
  return [...(fs.existsSync(file) ? [forUsers] : []), ...docs];
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
  // Under the source's sync lease, as any sync (run-sync.ts): a removal meanwhile waits for it, not undone by it, and a
  // new demo source's passages are not taken for a crash's orphans by another server starting meanwhile. Busy (another
  // process syncs it now): that sync refreshes it.
  const newId = demo ? undefined : randomUUID();
  const leased = demo?.id ?? newId!;
  const holder = `demo:${process.pid}`;
  if (!(await services.syncLeases.acquire(leased, holder, DEFAULT_LEASE_MS))) return null;
  try {
    return await ingestDocuments(services, {
      id: demo?.id,
      newId,
      name: DEMO_SOURCE_NAME,
      description: "How to install, configure and call docent: its REST API, CLI, configuration and knowledge sources.",
      baseUrl: underPublicUrl(publicUrl, "docs/"),
      origin: BUNDLED_ORIGIN,
      documents,
    });
  } finally {
    await services.syncLeases.release(leased, holder).catch(() => {});
  }
}
