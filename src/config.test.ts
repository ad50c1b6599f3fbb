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

  it("reads CORS_ORIGINS as *, or origins as browsers send them, and rejects what is not an origin", () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: "*" }).CORS_ORIGINS).toBe("*");
    expect(loadConfig({ CORS_ORIGINS: "https://App.Example.com/, http://localhost:3000" }).CORS_ORIGINS).toEqual(["https://app.example.com", "http://localhost:3000"]);
    expect(() => loadConfig({ CORS_ORIGINS: "https://app.example.com/path" })).toThrow(/CORS_ORIGINS="https:\/\/app.example.com\/path": must be \* or comma-separated origins/);
    expect(() => loadConfig({ CORS_ORIGINS: "app.example.com" })).toThrow(/CORS_ORIGINS=/);
  });
});
