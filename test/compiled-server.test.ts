import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigSchema } from "../src/config.ts";
import { ROOT } from "./support/spawn-server.ts";
import { tempDir } from "./support/test-server.ts";

/**
 * Production runs the compiled JavaScript with plain node (`npm run build`,
 * then `node dist/main.js`): built once here into a folder laid out as the
 * container image is (dist/ beside package.json, README.md, docs/, prisma/ and
 * node_modules/), started as its own process from another folder whose `.env`
 * holds its settings, and asked a question.
 */
describe("the compiled server", () => {
  const app = tempDir("docent-dist-");
  const run = tempDir("docent-run-");
  let child: ReturnType<typeof spawn> | undefined;
  let out = "";

  beforeAll(async () => {
    const built = spawn(process.execPath, [path.join(ROOT, "scripts/build.mjs"), path.join(app, "dist")], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    built.stdout!.on("data", (d) => (log += d));
    built.stderr!.on("data", (d) => (log += d));
    const code = await new Promise((resolve) => built.once("exit", resolve));
    if (code !== 0) throw new Error(`npm run build failed:\n${log}`);
    fs.copyFileSync(path.join(ROOT, "package.json"), path.join(app, "package.json"));
    for (const shared of ["node_modules", "prisma", "docs", "README.md"]) fs.symlinkSync(path.join(ROOT, shared), path.join(app, shared));
    fs.writeFileSync(path.join(run, ".env"), "# read by the server from its working directory\nPORT=0\nDATA_DIR=./state\nHOST=127.0.0.1\n");
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child!.once("exit", resolve));
    }
    fs.rmSync(app, { recursive: true, force: true });
    fs.rmSync(run, { recursive: true, force: true });
  });

  it("starts with plain node from dist/, reads .env, serves its demo source, pages and playground", async () => {
    const env = { ...process.env };
    for (const key of Object.keys(ConfigSchema.shape)) delete env[key];
    child = spawn(process.execPath, [path.join(app, "dist/main.js")], { cwd: run, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    const url = await new Promise<string>((resolve, reject) => {
      child!.stdout!.on("data", () => {
        const match = /docent: serving (http:\/\/\S+)\/v1/.exec(out);
        if (match) resolve(match[1]!);
      });
      child!.once("exit", (code) => reject(new Error(`exited (${code}) before serving:\n${out}`)));
    });
    // Log lines are JSON when stdout is not a terminal: the quotes come escaped.
    expect(out).toMatch(/demo source \\?"docent documentation\\?" ready \(\d+ pages/);
    expect(fs.existsSync(path.join(run, "state", "docent.db"))).toBe(true);
    // Its output is no terminal, so the first key went to a file only its user can read, and the log says where, not what.
    const keyFile = path.join(run, "state", "first-api-key");
    const key = fs.readFileSync(keyFile, "utf8").trim();
    expect(key).toMatch(/^dk_[A-Za-z0-9_-]{43}$/);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(out).not.toContain(key);
    expect(out).toMatch(/created the first API key; it is in first-api-key in DATA_DIR/);

    const response = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: "How do I add a knowledge source?" }] }),
    });
    expect(response.status).toBe(200);
    const reply = (await response.json()) as { url_references: string[] };
    expect(reply.url_references.length).toBeGreaterThan(0);
    expect(reply.url_references[0]).toMatch(new RegExp(`^${url}/docs/`));
    expect((await fetch(reply.url_references[0]!)).status).toBe(200);
    const page = await fetch(`${url}/`);
    expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    expect((await fetch(`${url}/playground/app.js`)).status).toBe(200);
    // The playground's citation reader is the compiled core's own module.
    const reader = await fetch(`${url}/playground/citations.js`);
    expect(reader.status).toBe(200);
    const code = await reader.text();
    expect(code).toMatch(/export function citationMarkers/);
    // …importing the compiled block reader by the URL it is served at.
    expect(code).toMatch(/from "\.\/markdown-blocks\.js"/);
    expect((await fetch(`${url}/playground/markdown-blocks.js`)).status).toBe(200);
  }, 60_000);
});
