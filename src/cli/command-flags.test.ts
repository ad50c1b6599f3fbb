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
});
