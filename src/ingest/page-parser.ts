import { createLimitedThread } from "../workers/limited-thread.ts";
import type { ParseJob } from "./parse-jobs.ts";
import type { ParseResult } from "./parse-page.ts";

/**
 * Parses pages on a thread of its own (workers/limited-thread.ts), one at a
 * time, each within a time and memory limit. Pages come from websites and
 * folders docent does not control: on the server's thread one slow page would
 * stall every request during a scheduled sync. A page over a limit is
 * reported as `over-limit` (a sync keeps what it had indexed of it).
 */
export interface PageParser {
  parsePage(bytes: Buffer, doc: { relPath: string; url?: string }, sourceId: string, baseUrl: string): Promise<ParseResult>;
  /** The pages an HTML page links to, resolved against `base` (see parse-jobs.ts); null for a page no parser can read, "over-limit" for one over the time or memory limit. */
  pageHrefs(html: string, base: string): Promise<string[] | null | "over-limit">;
  close(): Promise<void>;
}

export interface PageParserOptions {
  /** Time one page may take (default 20 s; the largest eval page, 1.3 MB of PostgreSQL's manual, takes about 0.3 s). */
  timeLimitMs?: number;
  /** Heap the thread may use (default 1 GB; a 10 MB page, the crawler's largest, needs about 300 MB). */
  memoryLimitMb?: number;
}

/** A sync parses pages back to back; between syncs (hours) the thread's heap would sit unused. */
const IDLE_MS = 10_000;

const workerUrl = new URL("./page-parse-worker.mjs", import.meta.url);

export function createPageParser({ timeLimitMs = 20_000, memoryLimitMb = 1024 }: PageParserOptions = {}): PageParser {
  const thread = createLimitedThread<ParseJob>({ script: workerUrl, timeLimitMs, memoryLimitMb, name: "page parser", idleMs: IDLE_MS });
  return {
    async parsePage(bytes, doc, sourceId, baseUrl) {
      const outcome = await thread.run({ kind: "page", bytes, doc: { relPath: doc.relPath, ...(doc.url && { url: doc.url }) }, sourceId, baseUrl });
      if ("result" in outcome) return outcome.result as ParseResult;
      return { skipped: "overLimit" in outcome ? "over-limit" : "unreadable" };
    },
    async pageHrefs(html, base) {
      const outcome = await thread.run({ kind: "hrefs", html, base });
      if ("result" in outcome) return outcome.result as string[];
      return "overLimit" in outcome ? "over-limit" : null;
    },
    close: () => thread.close(),
  };
}

let shared: PageParser | undefined;
/** The process's parser: one thread, started with the first page and idle (unreferenced) between syncs. */
export const sharedPageParser = () => (shared ??= createPageParser());
