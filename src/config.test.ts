import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, databaseFile, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("has working defaults with an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8787, HOST: "127.0.0.1", MAX_BODY_BYTES: 4 * 1024 * 1024, DOCENT_DEMO: true, AGENT_MODEL: "auto", MAX_REFERENCES: 5 });
    expect(config).toMatchObject({ MAX_MESSAGES: 1000, MAX_MESSAGE_CHARS: 100_000, MAX_INPUT_CHARS: 400_000 });
    expect(config.DATA_DIR).toBe(path.resolve("data"));
    expect(databaseFile(config)).toBe(path.resolve("data/docent.db"));
  });

  it("bounds provider calls by default: 3 attempts, 120 s each, 180 s in all to a first token; no fallback", () => {
    expect(loadConfig({})).toMatchObject({ PROVIDER_MAX_RETRIES: 2, PROVIDER_TIMEOUT_MS: 120_000, PROVIDER_DEADLINE_MS: 180_000, AGENT_FALLBACK: false });
    expect(loadConfig({ PROVIDER_DEADLINE_MS: "5000", AGENT_FALLBACK: "on" })).toMatchObject({ PROVIDER_DEADLINE_MS: 5000, AGENT_FALLBACK: true });
    expect(() => loadConfig({ PROVIDER_DEADLINE_MS: "10" })).toThrow(/PROVIDER_DEADLINE_MS="10"/);
  });

  it("stores no question text by default, keeps stored text 30 days, writes usage every second", () => {
    expect(loadConfig({})).toMatchObject({ STORE_QUESTIONS: false, QUESTION_RETENTION_DAYS: 30, USAGE_FLUSH_MS: 1000 });
    expect(loadConfig({ STORE_QUESTIONS: "1", QUESTION_RETENTION_DAYS: "7", USAGE_FLUSH_MS: "5000" })).toMatchObject({
      STORE_QUESTIONS: true,
      QUESTION_RETENTION_DAYS: 7,
      USAGE_FLUSH_MS: 5000,
    });
    expect(() => loadConfig({ QUESTION_RETENTION_DAYS: "0" })).toThrow(/QUESTION_RETENTION_DAYS="0"/);
    expect(() => loadConfig({ STORE_QUESTIONS: "sometimes" })).toThrow(/STORE_QUESTIONS="sometimes": must be 1\/0/);
    expect(() => loadConfig({ USAGE_FLUSH_MS: "10" })).toThrow(/USAGE_FLUSH_MS="10"/);
  });

  it("leaves retrieval assist off unless asked, and names its values when wrong", () => {
    expect(loadConfig({})).toMatchObject({ RETRIEVAL_ASSIST: "off", RETRIEVAL_ASSIST_TIMEOUT_MS: 1500 });
    expect(loadConfig({ RETRIEVAL_ASSIST: "rewrite", RETRIEVAL_ASSIST_TIMEOUT_MS: "800" })).toMatchObject({
      RETRIEVAL_ASSIST: "rewrite",
      RETRIEVAL_ASSIST_TIMEOUT_MS: 800,
    });
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
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: "-1", MAX_CONCURRENT_PER_KEY: "lots" })).toThrow(
      /RATE_LIMIT_PER_MINUTE="-1".*MAX_CONCURRENT_PER_KEY="lots": must be a whole number/,
    );
  });

  it("keeps MAX_MESSAGES within what the request schema reads at all", () => {
    expect(loadConfig({ MAX_MESSAGES: "2048" }).MAX_MESSAGES).toBe(2048);
    expect(() => loadConfig({ MAX_MESSAGES: "5000" })).toThrow(/MAX_MESSAGES="5000"/);
    expect(() => loadConfig({ MAX_MESSAGE_CHARS: "0" })).toThrow(/MAX_MESSAGE_CHARS="0"/);
  });

  it("reads CORS_ORIGINS as *, or origins as browsers send them, and rejects what is not an origin", () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: "*" }).CORS_ORIGINS).toBe("*");
    expect(loadConfig({ CORS_ORIGINS: "https://App.Example.com/, http://localhost:3000" }).CORS_ORIGINS).toEqual([
      "https://app.example.com",
      "http://localhost:3000",
    ]);
    expect(() => loadConfig({ CORS_ORIGINS: "https://app.example.com/path" })).toThrow(
      /CORS_ORIGINS="https:\/\/app.example.com\/path": must be \* or comma-separated origins/,
    );
    expect(() => loadConfig({ CORS_ORIGINS: "app.example.com" })).toThrow(/CORS_ORIGINS=/);
  });
});
