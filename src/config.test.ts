import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, databaseFile, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("has working defaults with an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8787, HOST: "127.0.0.1", MAX_BODY_BYTES: 4 * 1024 * 1024, DOCENT_DEMO: true, AGENT_MODEL: "auto", MAX_REFERENCES: 5 });
    expect(config.DATA_DIR).toBe(path.resolve("data"));
    expect(databaseFile(config)).toBe(path.resolve("data/docent.db"));
  });

  it("leaves retrieval assist off unless asked, and names its values when wrong", () => {
    expect(loadConfig({})).toMatchObject({ RETRIEVAL_ASSIST: "off", RETRIEVAL_ASSIST_TIMEOUT_MS: 1500 });
    expect(loadConfig({ RETRIEVAL_ASSIST: "rewrite", RETRIEVAL_ASSIST_TIMEOUT_MS: "800" })).toMatchObject({ RETRIEVAL_ASSIST: "rewrite", RETRIEVAL_ASSIST_TIMEOUT_MS: 800 });
    expect(() => loadConfig({ RETRIEVAL_ASSIST: "expand" })).toThrow(/RETRIEVAL_ASSIST="expand": must be off or rewrite/);
  });

  it("reads values and a SQLite DATABASE_URL", () => {
    const config = loadConfig({ PORT: "9000", DOCENT_DEMO: "0", DATABASE_URL: "file:/tmp/x.db", OPENAI_BASE_URL: "http://localhost:11434/v1" });
    expect(config).toMatchObject({ PORT: 9000, DOCENT_DEMO: false, OPENAI_BASE_URL: "http://localhost:11434/v1" });
    expect(databaseFile(config)).toBe("/tmp/x.db");
  });

  it("rejects bad values with one readable line naming each variable", () => {
    let error: unknown;
    try {
      loadConfig({ PORT: "eighty", DOCENT_DEMO: "maybe", OPENAI_BASE_URL: "not a url" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toMatch(/PORT="eighty": must be a whole number/);
    expect(message).toMatch(/DOCENT_DEMO="maybe"/);
    expect(message).toMatch(/OPENAI_BASE_URL="not a url"/);
  });

  it("limits each key to 600 requests a minute and 32 at once unless told, 0 turning a limit off", () => {
    expect(loadConfig({})).toMatchObject({ RATE_LIMIT_PER_MINUTE: 600, MAX_CONCURRENT_PER_KEY: 32 });
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: "0", MAX_CONCURRENT_PER_KEY: "0" })).toMatchObject({ RATE_LIMIT_PER_MINUTE: 0, MAX_CONCURRENT_PER_KEY: 0 });
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: "-1", MAX_CONCURRENT_PER_KEY: "lots" })).toThrow(/RATE_LIMIT_PER_MINUTE="-1".*MAX_CONCURRENT_PER_KEY="lots": must be a whole number/);
  });
});
