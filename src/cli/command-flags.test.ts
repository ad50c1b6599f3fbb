import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./main.ts";

/** runCli refuses a flag before it reads any configuration or data, so these touch nothing. */
async function run(...argv: string[]) {
  const errors: string[] = [];
  const code = await runCli(
    argv,
    () => {},
    (s) => errors.push(s),
  );
  return { code, error: errors.join("\n") };
}

describe("the CLI's flags", () => {
  it("refuses a flag the command does not take, saying which it takes, instead of ignoring it", async () => {
    expect(await run("keys", "create", "--name", "x", "--refresh", "6h")).toEqual({
      code: 2,
      error: "docent: keys create does not take --refresh: it takes --name, --sources, --expires-in, --json.",
    });
    expect(await run("usage", "--source", "abc")).toMatchObject({ code: 2, error: expect.stringContaining("usage does not take --source") });
    expect(await run("sources", "sync", "--all", "--max-pages", "1")).toMatchObject({ code: 2, error: expect.stringContaining("--max-pages") });
    expect(await run("db", "migrate", "--json")).toMatchObject({ code: 2, error: expect.stringContaining("it takes no flags") });
  });

  it("refuses sources add with flags of the other form: a folder's with a crawl's, or a crawl's without --url", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "docent-flags-"));
    const before = process.env.DATA_DIR;
    process.env.DATA_DIR = dataDir;
    try {
      const both = await run("sources", "add", "--name", "x", "--dir", "docs", "--base-url", "https://x.example/", "--url", "https://x.example/");
      expect(both).toEqual({ code: 2, error: "docent: sources add takes either --dir PATH (a folder) or --url URL (a crawl), not both." });
      const folder = await run("sources", "add", "--name", "x", "--dir", "docs", "--base-url", "https://x.example/", "--max-pages", "5");
      expect(folder).toMatchObject({ code: 2, error: expect.stringContaining("--sitemap and --max-pages are for a crawl") });
    } finally {
      if (before === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = before;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
