import fs from "node:fs";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { DEMO_SOURCE_NAME } from "../src/demo-source.ts";
import { silentLogger } from "../src/logging/logger.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { pageOf, tempDir } from "./support/test-server.ts";

/** A newcomer's first start: no keys, no sources, no provider key. */
describe("first start on an empty data dir", () => {
  let dataDir: string;
  let server: RunningServer;
  const lines: string[] = [];
  beforeAll(async () => {
    dataDir = tempDir();
    server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0" }), { log: (l) => lines.push(l), logger: silentLogger() });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints a first API key once, with a ready-to-paste curl line", () => {
    const output = lines.join("\n");
    expect(server.firstKey).toMatch(/^dk_/);
    expect(output.split(server.firstKey!).length - 1).toBe(2); // the key line and the curl line
    expect(output).toMatch(new RegExp(`curl ${server.url}/v1/chat/completions -H "Authorization: Bearer ${server.firstKey}"`));
  });

  it("answers a question about its own docs with references to the bundled pages", async () => {
    const client = new OpenAI({ apiKey: server.firstKey!, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const reply = (await client.chat.completions.create({
      model: "agent",
      messages: [{ role: "user", content: "How do I add a knowledge source?" }],
    })) as OpenAI.Chat.ChatCompletion & { url_references: string[] };
    expect(reply.choices[0]!.message.content).toMatch(/sources add/);
    expect(pageOf(reply.url_references[0])).toBe(`${server.url}/docs/knowledge-sources.md`);
    const page = await fetch(reply.url_references[0]!);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<h1 id="knowledge-sources">Knowledge sources<\/h1>/);
    const sources = await server.services.catalog.list();
    expect(sources.map((s) => s.name)).toEqual([DEMO_SOURCE_NAME]);
  });

  it("answers what a newcomer asks the demo docs first, and greets back", async () => {
    const client = new OpenAI({ apiKey: server.firstKey!, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const ask = async (content: string) =>
      (await client.chat.completions.create({ model: "agent", messages: [{ role: "user", content }] })) as OpenAI.Chat.ChatCompletion & {
        url_references: string[];
      };
    // The best-ranked page holds half of the first question; the CLI section holds more: that is coverage enough.
    const add = await ask("How do I add a knowledge source and ask a question about it?");
    expect(add.url_references.map(pageOf)).toContain(`${server.url}/docs/knowledge-sources.md`);
    expect(add.choices[0]!.message.content).toMatch(/sources add/);
    // With one source, a question can only be about it: refused only when nothing in it is relevant.
    const models = await ask("Which models are available?");
    expect(models.url_references.length).toBeGreaterThan(0);
    expect(models.choices[0]!.message.content).toMatch(/provider_a/);
    const hello = await ask("hi");
    expect(hello.url_references).toEqual([]);
    expect(hello.choices[0]!.message.content).toMatch(/^Hello! .*\(docent documentation\)/);
    expect((await ask("What is the capital of Australia?")).url_references).toEqual([]);
  });

  it("creates no further key on the next start, and DOCENT_DEMO=0 skips the demo", async () => {
    await server.close();
    const emptyDir = tempDir();
    const again = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0" }), { log: () => {}, logger: silentLogger() });
    expect(again.firstKey).toBeNull();
    await again.close();
    const said: string[] = [];
    const noDemo = await startServer(loadConfig({ DATA_DIR: emptyDir, PORT: "0", DOCENT_DEMO: "0" }), { log: (l) => said.push(l), logger: silentLogger() });
    expect(await noDemo.services.catalog.list()).toEqual([]);
    // With no source to answer from, the first step it names is adding one, before the curl line.
    expect(said.join("\n")).toMatch(/no knowledge source yet; add one first[\s\S]*sources add[\s\S]*curl /);
    expect(lines.join("\n")).not.toContain("no knowledge source yet");
    await noDemo.close();
    server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0" }), { log: () => {}, logger: silentLogger() });
  });
});

/** With no terminal the first key goes to a file; a key that file cannot hold is revoked, and start-up says so in one line. */
describe("first start with no terminal", () => {
  it("writes the first key to DATA_DIR/first-api-key, never to the log", async () => {
    const dataDir = tempDir();
    const lines: string[] = [];
    const server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "0" }), {
      log: (l) => lines.push(l),
      logger: silentLogger(),
      firstKeyTo: "file",
    });
    try {
      const file = `${dataDir}/first-api-key`;
      expect(fs.readFileSync(file, "utf8").trim()).toBe(server.firstKey);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(lines.join("\n")).not.toContain(server.firstKey!);
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("revokes a first key it could not write down, and says how to make one", async () => {
    const dataDir = tempDir();
    fs.mkdirSync(`${dataDir}/first-api-key`);
    const config = loadConfig({ DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "0" });
    try {
      await expect(startServer(config, { log: () => {}, logger: silentLogger(), firstKeyTo: "file" })).rejects.toThrow(
        /^could not write the first API key to first-api-key in DATA_DIR \(.+\); it was revoked\. Make a key with the CLI: keys create --name NAME/,
      );
      const again = await startServer(config, { log: () => {}, logger: silentLogger(), firstKeyTo: "file" });
      try {
        const keys = await again.services.keys.list();
        expect(keys).toHaveLength(1);
        expect(keys[0]!.revokedAt).not.toBeNull();
      } finally {
        await again.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
