import fs from "node:fs";
import path from "node:path";
import { badRequest } from "../core/errors.ts";
import type { PageValidator } from "../core/source-sync.ts";

/** A document of a source, from a folder or a crawl. */
export interface SourceDocument {
  /** Path relative to the source's root, with `/` separators: it becomes the page URL's path. */
  relPath: string;
  /** The page's exact URL when known (a crawled page); otherwise base URL + relPath. */
  url?: string;
  /** The document's bytes; rejects when it cannot be read. */
  read(): Promise<Buffer>;
  /** True when its server answered 304 Not Modified: the page stays as indexed, and `read` has nothing. */
  notModified?: boolean;
  /** True when it could not be downloaded now (unreachable, a server error, too large): `read` has nothing, and nothing indexed is removed. */
  unavailable?: boolean;
  /** A crawled page's validators (ETag, Last-Modified), to store for the next sync's conditional request. */
  validator?: PageValidator;
}

export interface DocumentFile extends SourceDocument {
  file: string;
}

const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const fileDocument = (file: string, relPath: string): DocumentFile => ({
  file,
  relPath,
  async read() {
    const { size } = await fs.promises.stat(file);
    if (size > MAX_FILE_BYTES) throw new Error(`${file} is larger than ${MAX_FILE_BYTES} bytes`);
    return fs.promises.readFile(file);
  },
});

export const DOCUMENT_EXTENSIONS = /\.(html?|xhtml|md|mdx|markdown)$/i;

/** Pages that are not content: indexes, search pages, source dumps, assets, error pages. */
const NOT_CONTENT =
  /(^|\/)(genindex[^/]*|search|py-modindex|404|_sources\/.*|_modules\/.*|_static\/.*|_images\/.*)$|(^|\/)(_sources|_modules|_static|_images)\//i;

export function isContentPath(relPath: string): boolean {
  const bare = relPath.replace(DOCUMENT_EXTENSIONS, "");
  return !NOT_CONTENT.test(bare) && !NOT_CONTENT.test(relPath);
}

/** Every HTML or Markdown file under `dir`, sorted; fails clearly if `dir` is not a folder. */
export function listDocuments(dir: string): DocumentFile[] {
  const root = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(root);
  } catch {
    throw badRequest(`The folder '${dir}' does not exist.`, "dir", "folder_not_found");
  }
  if (!stat.isDirectory()) throw badRequest(`'${dir}' is not a folder.`, "dir", "not_a_folder");
  const out: DocumentFile[] = [];
  const visit = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && entry.name !== "node_modules") visit(full);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && DOCUMENT_EXTENSIONS.test(entry.name)) {
        const relPath = path.relative(root, full).split(path.sep).join("/");
        if (isContentPath(relPath)) out.push(fileDocument(full, relPath));
      }
    }
  };
  visit(root);
  // A Markdown source next to its rendered HTML page (foo.md + foo.html) is the same page twice.
  const html = new Set(out.filter((d) => /\.html?$/i.test(d.relPath)).map((d) => d.relPath.replace(/\.[^./]+$/, "")));
  const unique = out.filter((d) => /\.html?$/i.test(d.relPath) || !html.has(d.relPath.replace(/\.[^./]+$/, "")));
  return unique.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}
