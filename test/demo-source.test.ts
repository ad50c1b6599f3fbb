import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { DEMO_SOURCE_NAME, readmeForUsers, SKIP_END, SKIP_START } from "../src/demo-source.ts";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { silentLogger } from "../src/logging/logger.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { freePort, ROOT } from "./support/spawn-server.ts";
import { FIXTURES, tempDir } from "./support/test-server.ts";

const run = promisify(execFile);

/** The demo source's pages are served by docent itself, so its references must follow the address docent runs on. */
describe("the demo source follows the server", () => {
  let dataDir: string;
  let key: string;
  let server: RunningServer | undefined;
  const start = async (port: number, env: Record<string, string> = {}) => {
    await server?.close();
    server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: String(port), ...env }), { log: () => {}, logger: silentLogger() });
    return server;
  };
  const ask = async (s: RunningServer) => {
    const response = await fetch(`${s.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: "How do I add a knowledge source to docent?" }] }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { url_references: string[] }).url_references;
  };
  const expectServedBy = async (s: RunningServer, references: string[]) => {
    expect(references.length).toBeGreaterThan(0);
    for (const url of references) {
      expect(url.startsWith(`${s.url}/docs/`)).toBe(true);
      expect((await fetch(url)).status).toBe(200);
    }
  };

  beforeAll(async () => {
    dataDir = tempDir();
    key = (await start(await freePort())).firstKey!;
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses the off-topic questions its own README quotes as refused, and answers one its docs cover", async () => {
    const refs = async (content: string) => {
      const response = await fetch(`${server!.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "agent", messages: [{ role: "user", content }] }),
      });
      return ((await response.json()) as { url_references: string[] }).url_references;
    };
    for (const question of ["when did the Berlin Wall fall?", "How fast can a cheetah run?", "How do I set up MySQL replication?"]) {
      expect(await refs(question), question).toEqual([]);
    }
    expect((await refs("How do I add a knowledge source?")).length).toBeGreaterThan(0);
  });

  it("behind a proxy under a path, its pages are under PUBLIC_URL's path", async () => {
    const behind = await start(await freePort(), { PUBLIC_URL: "https://docs.example.com/docent" });
    const references = await ask(behind);
    expect(references.length).toBeGreaterThan(0);
    for (const url of references) expect(url.startsWith("https://docs.example.com/docent/docs/"), url).toBe(true);
    await start(await freePort());
  });

  it("restarted on another port, alone in the catalog", async () => {
    const first = server!;
    await expectServedBy(first, await ask(first));
    const again = await start(await freePort());
    expect(again.url).not.toBe(first.url);
    await expectServedBy(again, await ask(again));
  });

  it("restarted on another port, with other sources in the catalog", async () => {
    await ingestDocuments(server!.services, {
      name: "PostgreSQL",
      baseUrl: "https://www.postgresql.org/docs/15/",
      origin: "pg",
      documents: listDocuments(path.join(FIXTURES, "pg")),
    });
    const before = server!.url;
    const again = await start(await freePort());
    expect(again.url).not.toBe(before);
    expect(new Set((await again.services.catalog.list()).map((s) => s.name))).toEqual(new Set([DEMO_SOURCE_NAME, "PostgreSQL"]));
    await expectServedBy(again, await ask(again));
  });

  it("syncs with the CLI like any other source", async () => {
    const demo = (await server!.services.catalog.list()).find((s) => s.name === DEMO_SOURCE_NAME)!;
    const { stdout } = await run("npm", ["run", "-s", "cli", "--", "sources", "sync", demo.id, "--json"], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
    });
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ id: demo.id, name: DEMO_SOURCE_NAME, added: 0, changed: 0, removed: 0, base_url: `${server!.url}/docs/` });
    expect(result.unchanged).toBe(demo.pages);
    await expectServedBy(server!, await ask(server!));
  });
});

describe("the demo source's README", () => {
  it("leaves out the sections written for docent's developers, with their subsections, and keeps the rest", () => {
    const markdown = [
      "# docent",
      "Intro.",
      "## Quick start",
      "Run it.",
      "## Retrieval",
      "How it finds pages.",
      "### Evaluation",
      "How fast can a cheetah run? was refused.",
      "#### Tests",
      "Nested developer section.",
      "```sh",
      "## not a heading inside a fence",
      "```",
      "#### A subsection of the evaluation",
      "More eval notes.",
      "### Embeddings",
      "Optional.",
      "## Tests",
      "npm test.",
    ].join("\n");
    const kept = readmeForUsers(markdown);
    expect(kept).toContain("## Quick start\nRun it.");
    expect(kept).toContain("How it finds pages.\n### Embeddings\nOptional.");
    expect(kept).not.toMatch(/cheetah|Evaluation|Nested|eval notes|not a heading|npm test/);
    // A passage of a user section can be marked to be left out too; an unclosed mark leaves out the rest.
    expect(readmeForUsers(`a\n${SKIP_START}\nBerlin Wall\n${SKIP_END}\nb`)).toBe("a\n\nb");
    expect(readmeForUsers(`a\n${SKIP_START}\nBerlin Wall`)).toBe("a\n");
    // Named in prose, a mark is no mark.
    expect(readmeForUsers(`a \`${SKIP_START}\` b\nc`)).toBe(`a \`${SKIP_START}\` b\nc`);
    const real = readmeForUsers(fs.readFileSync(path.join(ROOT, "README.md"), "utf8"));
    expect(real).not.toMatch(/Berlin Wall|cheetah/);
    expect(real).toMatch(/^## Quick start$/m);
    expect(real).toMatch(/^## Configuration$/m);
    expect(real).not.toMatch(/^#+ (Evaluation|Benchmark|Tests|The fuzz bench)$/m);
  });
});
