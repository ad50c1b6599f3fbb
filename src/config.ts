import path from "node:path";
import { z } from "zod";
import { DEFAULT_MIN_SIMILARITY } from "./core/chat-engine.ts";
import { REQUEST_BOUNDS } from "./core/chat-request.ts";
import { DEFAULT_INPUT_LIMITS } from "./core/input-limits.ts";
import { parseInterval } from "./sync/interval.ts";

/**
 * Every setting comes from the environment, validated here once at start-up.
 * README.md "Configuration" documents each variable.
 */
export const DEFAULT_PROVIDER_A_MODEL = "gpt-6.1-sol";
export const DEFAULT_PROVIDER_B_MODEL = "claude-opus-5-5";

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));
const optionalUrl = optionalString.pipe(z.url({ error: "must be a URL such as http://localhost:11434/v1" }).optional());
const int = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? String(fallback) : v.trim()))
    .transform((v) => Number(v))
    .pipe(z.number({ error: "must be a whole number" }).int("must be a whole number").min(min).max(max));
/** A duration such as `30m` or `24h` in seconds (`off`: 0), `fallback` when unset. */
const duration = (fallback: number, examples: string) =>
  optionalString.transform((v, ctx) => {
    if (v === undefined) return fallback;
    const seconds = parseInterval(v);
    if (seconds === null) {
      ctx.addIssue({ code: "custom", message: `must be a duration such as ${examples} (at most 365d), or off` });
      return z.NEVER;
    }
    return seconds;
  });

const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const s = v.trim().toLowerCase();
      if (["1", "true", "yes", "on"].includes(s)) return true;
      if (["0", "false", "no", "off"].includes(s)) return false;
      ctx.addIssue({ code: "custom", message: "must be 1/0, true/false, yes/no or on/off" });
      return z.NEVER;
    });

/** An origin as browsers send it (scheme://host[:port], lower case), or null when `text` is not one. */
function originOf(text: string): string | null {
  try {
    const url = new URL(text);
    const bare = url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password && !text.endsWith("#") && !text.endsWith("?");
    return bare && /^https?:$/.test(url.protocol) ? url.origin : null;
  } catch {
    return null;
  }
}

/** `*`, or comma-separated origins; unset: no cross-origin access. */
const corsOrigins = optionalString.transform((v, ctx): "*" | string[] => {
  if (v === undefined) return [];
  if (v === "*") return "*";
  const origins: string[] = [];
  for (const item of v
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean)) {
    const origin = originOf(item);
    if (!origin) {
      ctx.addIssue({
        code: "custom",
        message: `must be * or comma-separated origins such as https://app.example.com,http://localhost:3000 (${JSON.stringify(item)} is not an origin)`,
      });
      return z.NEVER;
    }
    origins.push(origin);
  }
  return origins;
});

const AGENT_MODEL = /^(auto|extractive|provider_a|provider_b|openai:.+|anthropic:.+)$/;

export const ConfigSchema = z.object({
  PORT: int(0, 65535, 8787),
  HOST: optionalString.transform((v) => v ?? "127.0.0.1"),
  DATA_DIR: optionalString.transform((v) => path.resolve(v ?? "./data")),
  DATABASE_URL: optionalString.refine((v) => v === undefined || v.startsWith("file:") || /^postgres(ql)?:\/\//.test(v), {
    error: "must be a SQLite URL such as file:./data/docent.db or a PostgreSQL URL such as postgresql://user:pass@host:5432/docent",
  }),
  MAX_BODY_BYTES: int(1024, 1024 * 1024 * 1024, 4 * 1024 * 1024),
  MAX_MESSAGES: int(1, REQUEST_BOUNDS.messages, DEFAULT_INPUT_LIMITS.maxMessages),
  MAX_MESSAGE_CHARS: int(1, 100_000_000, DEFAULT_INPUT_LIMITS.maxMessageChars),
  MAX_INPUT_CHARS: int(1, 100_000_000, DEFAULT_INPUT_LIMITS.maxInputChars),
  MAX_REFERENCES: int(1, 50, 5),
  // Per API key; 0 = off. 600/min is 10 a second sustained, far past a person asking questions or a
  // client retrying; 32 at once is past any interactive client. They stop a leaked key or a runaway loop.
  RATE_LIMIT_PER_MINUTE: int(0, 1_000_000, 600),
  MAX_CONCURRENT_PER_KEY: int(0, 100_000, 32),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  PROVIDER_A_MODEL: optionalString.transform((v) => v ?? DEFAULT_PROVIDER_A_MODEL),
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalUrl,
  PROVIDER_B_MODEL: optionalString.transform((v) => v ?? DEFAULT_PROVIDER_B_MODEL),
  AGENT_MODEL: optionalString
    .transform((v) => v ?? "auto")
    .refine((v) => AGENT_MODEL.test(v), { error: "must be auto, extractive, provider_a, provider_b, openai:<model> or anthropic:<model>" }),
  AGENT_STRUCTURED_MODEL: optionalString
    .transform((v) => v ?? "auto")
    .refine((v) => v !== "extractive" && AGENT_MODEL.test(v), { error: "must be auto, provider_a, provider_b, openai:<model> or anthropic:<model>" }),
  AGENT_SOURCE_CHOICE_TIMEOUT_MS: int(0, 60_000, 1500),
  /** One provider attempt's time to its first token (to the whole reply when not streamed). */
  // off: search with the question as asked. rewrite: a provider model answering first restates it in the docs' terms.
  RETRIEVAL_ASSIST: optionalString.transform((v) => v ?? "off").pipe(z.enum(["off", "rewrite"], { error: "must be off or rewrite" })),
  RETRIEVAL_ASSIST_TIMEOUT_MS: int(100, 60_000, 1500),
  PROVIDER_TIMEOUT_MS: int(1000, 3_600_000, 120_000),
  /** Retries before the first token, on 429/5xx/connection errors, time-outs and errors before any text. */
  PROVIDER_MAX_RETRIES: int(0, 10, 2),
  /** One provider call's time to its first token across all attempts and waits. */
  PROVIDER_DEADLINE_MS: int(1000, 3_600_000, 180_000),
  /** When the agent's provider fails before the first token (after its retries), the other provider answers. */
  AGENT_FALLBACK: flag(false),
  WEAVIATE_URL: optionalUrl,
  WEAVIATE_GRPC_URL: optionalUrl,
  WEAVIATE_API_KEY: optionalString,
  WEAVIATE_COLLECTION_PREFIX: optionalString
    .transform((v) => v ?? "Docent")
    .refine((v) => /^[A-Z][A-Za-z0-9]*$/.test(v), { error: "must start with a capital letter and hold only letters and digits" }),
  EMBEDDINGS_BASE_URL: optionalUrl,
  EMBEDDINGS_MODEL: optionalString,
  EMBEDDINGS_API_KEY: optionalString,
  RETRIEVAL_MODE: optionalString.transform((v) => v ?? "lexical").pipe(z.enum(["lexical", "vector", "hybrid"], { error: "must be lexical, vector or hybrid" })),
  HYBRID_ALPHA: optionalString.transform((v) => Number(v ?? "0.5")).pipe(z.number({ error: "must be a number from 0 to 1" }).min(0).max(1)),
  EMBEDDINGS_MIN_SIMILARITY: optionalString
    .transform((v) => Number(v ?? String(DEFAULT_MIN_SIMILARITY)))
    .pipe(z.number({ error: "must be a number from 0 to 1" }).min(0).max(1)),
  DOCENT_DEMO: flag(true),
  /** How long a stopping service lets requests and streams in flight run before it cuts them. */
  SHUTDOWN_GRACE_MS: int(0, 3_600_000, 10_000),
  PUBLIC_URL: optionalUrl,
  /**
   * How often a server looks for changes other processes made (the CLI, other
   * instances): keys, sources, the embedded index. Each look is one tiny read;
   * 500 ms keeps "a revoked key is refused everywhere within a second".
   */
  REFRESH_INTERVAL_MS: int(50, 60_000, 500),
  CORS_ORIGINS: corsOrigins,
  /** One JSON line per request (human-readable on a terminal); the question's text only with LOG_QUESTIONS. */
  LOG_LEVEL: optionalString
    .transform((v) => (v ?? "info").toLowerCase())
    .pipe(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { error: "must be fatal, error, warn, info, debug, trace or silent" })),
  LOG_QUESTIONS: flag(false),
  /** Let the crawler reach names that resolve to internal addresses (an intranet's docs); off: only sites written as localhost or an internal IP. */
  CRAWL_ALLOW_INTERNAL: flag(false),
  /** How often the server re-syncs every source (seconds; sources add --refresh overrides per source); unset or off: only those with their own. */
  SYNC_INTERVAL: duration(0, "30m, 24h or 7d"),
  /** The longest one sync may run (seconds; off: no limit), so a slow site cannot hold the schedule. */
  SYNC_TIME_LIMIT: duration(3600, "30m, 1h or 6h"),
  /** When set, GET /metrics needs it as a Bearer token; unset, /metrics answers only this machine, and only on a loopback HOST. */
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || (v.length >= 16 && /^\S+$/.test(v)), {
    error: "must be at least 16 characters with no spaces (e.g. openssl rand -hex 32)",
  }),
  /** Keep each served completion's question and answer text, for feedback and the docs-gap report. Off: only ids, ratings, references. */
  STORE_QUESTIONS: flag(false),
  /** Stored question, answer and feedback-comment text is cleared after this many days. */
  QUESTION_RETENTION_DAYS: int(1, 3650, 30),
  /** Served completions (what feedback and the gap report read) are deleted after this many days, so the table does not grow without end. */
  SERVED_RETENTION_DAYS: int(1, 3650, 90),
  /** How often usage and served completions are written (a crash loses at most this much; a graceful stop none). */
  USAGE_FLUSH_MS: int(100, 3_600_000, 1000),
});

export type Config = z.infer<typeof ConfigSchema>;

/** Checks that need more than one variable. */
function crossCheck(config: Config): string[] {
  const problems: string[] = [];
  if (config.RETRIEVAL_MODE !== "lexical" && !config.EMBEDDINGS_MODEL)
    problems.push(`RETRIEVAL_MODE=${JSON.stringify(config.RETRIEVAL_MODE)}: needs EMBEDDINGS_MODEL (and EMBEDDINGS_BASE_URL or EMBEDDINGS_API_KEY)`);
  if (config.EMBEDDINGS_MODEL && !config.EMBEDDINGS_BASE_URL && !config.EMBEDDINGS_API_KEY)
    problems.push(`EMBEDDINGS_MODEL=${JSON.stringify(config.EMBEDDINGS_MODEL)}: needs EMBEDDINGS_BASE_URL or EMBEDDINGS_API_KEY`);
  return problems;
}

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError with one readable line per bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (result.success) {
    const problems = crossCheck(result.data);
    if (problems.length === 0) return result.data;
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  const lines = result.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? "environment");
    return `${key}=${JSON.stringify(env[key] ?? "")}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration: ${lines.join("; ")}`);
}

/** The SQLite file Prisma uses: DATABASE_URL's path, or DATA_DIR/docent.db (only for file: URLs). */
export function databaseFile(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): string {
  if (!config.DATABASE_URL?.startsWith("file:")) return path.join(config.DATA_DIR, "docent.db");
  return path.resolve(config.DATABASE_URL.slice("file:".length).replace(/^\/\/(?=\/)/, ""));
}

export const indexFile = (config: Pick<Config, "DATA_DIR">) => path.join(config.DATA_DIR, "index.db");
