import fs from "node:fs";
import { Hono } from "hono";
import { Marked, type Tokens } from "marked";
import { notFound } from "../core/errors.ts";
import { bundledDocuments } from "../demo-source.ts";
import { slugify } from "../ingest/markdown-extract.ts";

/** The text a heading shows, as the ingest reads it: inline syntax gone, code spans kept. */
function plainText(tokens: Tokens.Generic[] | undefined): string {
  return (tokens ?? []).map((t) => (t.tokens ? plainText(t.tokens) : t.type === "html" ? "" : (t.text ?? ""))).join("");
}

/**
 * Headings carry the anchors the demo source's references use (the ingest's
 * slug of the same text), so `/docs/configuration.md#storage` opens there.
 */
const markdown = new Marked({
  gfm: true,
  renderer: {
    heading({ tokens, depth }) {
      const id = slugify(plainText(tokens as Tokens.Generic[]).trim());
      return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

const STYLE = `body{font:16px/1.6 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
pre{background:#f6f8fa;padding:.8rem;overflow:auto;border-radius:6px}code{font-family:ui-monospace,monospace;font-size:.9em}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3rem .6rem}:target{background:#fff8c5}`;

// Our own files, rendered without scripts: nothing on the page needs to run.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Where a bundled page sits in the repository (README.md at its root, the rest under docs/). */
const repoPath = (relPath: string) => (relPath === "README.md" ? relPath : `docs/${relPath}`);

/**
 * Links written for the repository (`docs/rest-api.md` in the README, `../README.md`
 * in docs/) pointed at pages this route does not have: they now lead to the bundled
 * page, and a link to a repository file that is not served keeps its text only.
 */
function relinked(href: string, from: string, served: ReadonlySet<string>): string | null {
  if (/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(href)) return href;
  const [target = "", hash = ""] = href.split(/(?=#)/);
  const resolved = new URL(target, `file:///${repoPath(from)}`).pathname.slice(1);
  const page = [...served].find((rel) => repoPath(rel) === resolved);
  return page ? `/docs/${page}${hash}` : null;
}

function renderPage(source: string, name: string, served: ReadonlySet<string>): string {
  const title = /^#\s+(.+)$/m.exec(source)?.[1] ?? name;
  const tokens = markdown.lexer(source.replace(/^---\n[\s\S]*?\n---\n/, ""));
  markdown.walkTokens(tokens, (token) => {
    if (token.type !== "link") return;
    const href = relinked(token.href, name, served);
    if (href === null) Object.assign(token, { type: "text", raw: token.text, tokens: token.tokens });
    else token.href = href;
  });
  const body = markdown.parser(tokens);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · docent</title><link rel="icon" href="data:,"><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The bundled documentation at /docs/, the pages the demo source's references
 * point to: Markdown rendered as HTML for a browser, the Markdown itself for
 * `Accept: text/markdown`. Pages are rendered once, on first request.
 */
export function bundledDocsRoutes() {
  const app = new Hono();
  const files = new Map(bundledDocuments().map((d) => [d.relPath, d.file]));
  const rendered = new Map<string, string>();
  // The folder itself opens at the README, the bundled documentation's first page.
  app.get("/", (c) => c.redirect("/docs/README.md"));
  app.get("/*", (c) => {
    let rel = c.req.path.replace(/^\/docs\//, "");
    try {
      rel = decodeURIComponent(rel);
    } catch {
      // malformed escapes are refused before routing; a stray one here is just not a page
    }
    if (rel === "") return c.redirect("/docs/README.md");
    // `/docs/configuration` names the same page as `/docs/configuration.md`.
    const found = files.has(rel) ? rel : files.has(`${rel}.md`) ? `${rel}.md` : null;
    if (!found) throw notFound(`No bundled document '${rel}'.`, null, "not_found");
    const file = files.get(found)!;
    const headers = { "x-content-type-options": "nosniff", "cache-control": "no-cache" };
    if (!found.endsWith(".md"))
      return c.body(fs.readFileSync(file), 200, { ...headers, "content-type": "text/html; charset=utf-8", "content-security-policy": CSP });
    if ((c.req.header("accept") ?? "").includes("text/markdown"))
      return c.body(fs.readFileSync(file, "utf8"), 200, { ...headers, "content-type": "text/markdown; charset=utf-8" });
    let html = rendered.get(found);
    if (html === undefined) rendered.set(found, (html = renderPage(fs.readFileSync(file, "utf8"), found, new Set(files.keys()))));
    return c.body(html, 200, { ...headers, "content-type": "text/html; charset=utf-8", "content-security-policy": CSP, vary: "accept" });
  });
  return app;
}
