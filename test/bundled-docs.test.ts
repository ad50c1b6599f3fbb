import fs from "node:fs";
import { parse } from "node-html-parser";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { silentLogger } from "../src/logging/logger.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { tempDir } from "./support/test-server.ts";

/** The demo source's references open the right section of a rendered page in a browser. */
describe("the bundled documentation at /docs/", () => {
  let dataDir: string;
  let server: RunningServer;
  beforeAll(async () => {
    dataDir = tempDir();
    server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0" }), { log: () => {}, logger: silentLogger() });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const ids = async (url: string) => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    return new Set(
      parse(await response.text())
        .querySelectorAll("[id]")
        .map((el) => el.id),
    );
  };

  it("renders Markdown as HTML whose heading ids are the anchors references use", async () => {
    const found = await ids(`${server.url}/docs/configuration.md`);
    expect(found.has("storage")).toBe(true);
    // The same page without its extension, and the Markdown itself when asked for.
    expect((await ids(`${server.url}/docs/configuration`)).has("storage")).toBe(true);
    const raw = await fetch(`${server.url}/docs/configuration.md`, { headers: { accept: "text/markdown" } });
    expect(raw.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(await raw.text()).toMatch(/^## Storage$/m);
  });

  it("has, for every reference of answers about docent, the section its anchor names", async () => {
    const client = new OpenAI({ apiKey: server.firstKey!, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const questions = [
      "Where does docent store its data?",
      "How do I revoke an API key?",
      "How do I add a knowledge source?",
      "Which environment variables configure the server port?",
    ];
    let anchored = 0;
    for (const question of questions) {
      const reply = (await client.chat.completions.create({ model: "agent", messages: [{ role: "user", content: question }] })) as unknown as {
        url_references: string[];
      };
      for (const reference of reply.url_references) {
        const url = new URL(reference);
        if (!url.hash) continue;
        anchored++;
        expect((await ids(url.href.replace(/#.*$/, ""))).has(decodeURIComponent(url.hash.slice(1))), reference).toBe(true);
      }
    }
    expect(anchored).toBeGreaterThan(0);
  });

  it("opens at the README, and every link on every page leads to a page it serves", async () => {
    for (const folder of ["/docs", "/docs/"]) {
      const response = await fetch(`${server.url}${folder}`, { redirect: "manual" });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/docs/README.md");
    }
    for (const page of ["README.md", "rest-api.md", "configuration.md", "api-keys.md", "knowledge-sources.md"]) {
      const url = `${server.url}/docs/${page}`;
      const links = parse(await (await fetch(url)).text())
        .querySelectorAll("a[href]")
        .map((a) => new URL(a.getAttribute("href")!, url))
        .filter((link) => link.origin === server.url);
      if (page === "README.md") expect(links.map((l) => l.pathname)).toContain("/docs/rest-api.md");
      for (const link of links) expect([link.pathname, (await fetch(link)).status]).toEqual([link.pathname, 200]);
    }
  });

  it("answers an unknown page with a 404 in OpenAI's error shape, and runs no script", async () => {
    const missing = await fetch(`${server.url}/docs/nope.md`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("not_found");
    const page = await fetch(`${server.url}/docs/README.md`);
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    // No other site may frame it (clickjacking): the playground and the API page refuse framing too.
    expect(page.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(await page.text()).not.toMatch(/<script/i);
  });
});
