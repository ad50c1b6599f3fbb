import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Hono } from "hono";
import { underPublicUrl } from "../../public-url.ts";
import { buildOpenApiDocument } from "./document.ts";

const PUBLIC = path.join(import.meta.dirname, "public");
const UI = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

// Swagger UI sets inline styles; its scripts and every call stay on this origin.
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const FILES: Record<string, { file: string; type: string }> = {
  "/docs/api": { file: path.join(PUBLIC, "index.html"), type: "text/html; charset=utf-8" },
  "/docs/api/api-reference.js": { file: path.join(PUBLIC, "api-reference.js"), type: "text/javascript; charset=utf-8" },
  "/docs/api/swagger-ui-bundle.js": { file: path.join(UI, "swagger-ui-bundle.js"), type: "text/javascript; charset=utf-8" },
  "/docs/api/swagger-ui.css": { file: path.join(UI, "swagger-ui.css"), type: "text/css; charset=utf-8" },
};

/**
 * `GET /openapi.json` (no key: it describes, it does not answer) and the API
 * reference page at `/docs/api`, served from the swagger-ui-dist package.
 */
export function openApiRoutes({ publicUrl }: { publicUrl?: string } = {}) {
  const app = new Hono();
  const document = buildOpenApiDocument();
  // PUBLIC_URL when set, else "/" (the document's own origin, as OpenAPI reads a relative server URL): never the
  // request's Host header, which a shared cache in front would hand every later reader.
  // Its path too: behind a proxy at https://example.com/docent/, the API is at https://example.com/docent/v1/….
  const servers = [{ url: publicUrl ? underPublicUrl(publicUrl, "").replace(/\/$/, "") : "/" }];
  app.get("/openapi.json", (c) => c.json({ ...document, servers }));
  const cache = new Map<string, string>();
  for (const [route, { file, type }] of Object.entries(FILES)) {
    app.get(route, (c) => {
      let body = cache.get(route);
      // The source-map comment would point at a file not served.
      if (body === undefined) cache.set(route, (body = fs.readFileSync(file, "utf8").replace(/^\/\/# sourceMappingURL=.*$/m, "")));
      return c.body(body, 200, { "content-type": type, "content-security-policy": CSP, "x-content-type-options": "nosniff", "cache-control": "no-cache" });
    });
  }
  return app;
}
