import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Hono } from "hono";

const PUBLIC = path.join(import.meta.dirname, "public");
const require = createRequire(import.meta.url);

/**
 * Same-origin only, no inline code: scripts, styles and API calls from this
 * server, images from it or data: URLs. Trusted Types admit HTML into the page
 * only through DOMPurify's policy (the rendered answer).
 */
export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types dompurify",
].join("; ");

const JS = "text/javascript; charset=utf-8";

/** The files the page loads, by URL path: its own, and the two npm packages it renders Markdown with. */
function files(): Map<string, { file: string; type: string }> {
  const own = (name: string, type: string) => [`/playground/${name}`, { file: path.join(PUBLIC, name), type }] as const;
  return new Map([
    ["/", { file: path.join(PUBLIC, "index.html"), type: "text/html; charset=utf-8" }],
    own("style.css", "text/css; charset=utf-8"),
    own("app.js", JS),
    own("api.js", JS),
    own("render.js", JS),
    own("catalog-view.js", JS),
    own("describe-error.js", JS),
    own("feedback-view.js", JS),
    own("conversation-view.js", JS),
    ["/playground/vendor/marked.js", { file: require.resolve("marked"), type: JS }],
    ["/playground/vendor/purify.js", { file: path.join(path.dirname(require.resolve("dompurify")), "purify.es.mjs"), type: JS }],
  ]);
}

/**
 * The core's citation reader and the block reader it imports, so the page reads an answer's markers as the server
 * does (one reader, not a copy): compiled JavaScript beside the compiled server, or the TypeScript source transpiled by
 * esbuild, its `.ts` import written as the `.js` URL it is served at.
 */
function coreModule(name: string): () => Promise<string> {
  return async () => {
    const compiled = path.join(import.meta.dirname, `../core/${name}.js`);
    if (fs.existsSync(compiled)) return fs.readFileSync(compiled, "utf8");
    const { transformSync } = await import("esbuild");
    const source = fs.readFileSync(path.join(import.meta.dirname, `../core/${name}.ts`), "utf8");
    return transformSync(source, { loader: "ts", format: "esm" }).code.replace(/from "\.\/([a-z-]+)\.ts"/g, 'from "./$1.js"');
  };
}

/** The browser playground at `/`: a static page that calls /v1 with the key the visitor pastes. */
export function playgroundRoutes() {
  const app = new Hono();
  const cache = new Map<string, string>();
  const routes = [...files()].map(([route, { file, type }]) => [route, type, async () => fs.readFileSync(file, "utf8")] as const);
  for (const name of ["citations", "markdown-blocks"]) routes.push([`/playground/${name}.js`, JS, coreModule(name)]);
  for (const [route, type, read] of routes) {
    app.get(route, async (c) => {
      // Read once; the packages' source-map comments would only point at files not served.
      let body = cache.get(route);
      if (body === undefined) cache.set(route, (body = (await read()).replace(/^\/\/# sourceMappingURL=.*$/m, "")));
      return c.body(body, 200, {
        "content-type": type,
        "content-security-policy": PLAYGROUND_CSP,
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": "no-cache",
      });
    });
  }
  return app;
}
