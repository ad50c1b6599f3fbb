import fs from "node:fs";
import path from "node:path";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString as textOf } from "mdast-util-to-string";
import type { AppServices } from "./app-services.ts";
import { type IngestResult, ingestDocuments } from "./ingest/ingest-documents.ts";
import { type DocumentFile, fileDocument, listDocuments } from "./ingest/list-documents.ts";
import { underPublicUrl } from "./public-url.ts";

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

/** The README without its developer sections (each up to the next heading of its level or higher) and marked passages. */
export function readmeForUsers(markdown: string): string {
  return withoutSections(withoutMarked(markdown));
}

function withoutMarked(markdown: string): string {
  // A mark counts on a line of its own, so prose that names it (in backticks) is no mark.
  const line = (mark: string) => new RegExp(`^${mark.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}[ \t]*$`, "m");
  let rest = markdown;
  let out = "";
  for (let start = line(SKIP_START).exec(rest); start; start = line(SKIP_START).exec(rest)) {
    out += rest.slice(0, start.index);
    const after = rest.slice(start.index + start[0].length);
    const end = line(SKIP_END).exec(after);
    // An unclosed mark leaves the rest out: better a page too short than an off-topic question answered.
    rest = end ? after.slice(end.index + end[0].length) : "";
  }
  return out + rest;
}

function withoutSections(markdown: string): string {
  const cuts: Array<[number, number]> = [];
  const headings = fromMarkdown(markdown).children.filter((node) => node.type === "heading");
  headings.forEach((heading, i) => {
    const from = heading.position?.start.offset ?? 0;
    // A developer section inside one already cut goes with it.
    if (!DEVELOPER_SECTIONS.has(textOf(heading).trim()) || from < (cuts.at(-1)?.[1] ?? 0)) return;
    const end = headings.slice(i + 1).find((next) => next.depth <= heading.depth);
    cuts.push([from, end?.position?.start.offset ?? markdown.length]);
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
  return ingestDocuments(services, {
    name: DEMO_SOURCE_NAME,
    description: "How to install, configure and call docent: its REST API, CLI, configuration and knowledge sources.",
    baseUrl: underPublicUrl(publicUrl, "docs/"),
    origin: BUNDLED_ORIGIN,
    documents,
  });
}
