import { Worker } from "node:worker_threads";
import type { ParseJob } from "./parse-jobs.ts";
import type { ParseResult } from "./parse-page.ts";

/**
 * Parses pages on a thread of its own, one at a time, each within a time and
 * memory limit. Pages come from websites and folders docent does not control,
 * and parsers have slow cases nobody has found yet: on the server's thread one
 * such page would stall every request during a scheduled sync. A page over a
 * limit ends the thread (the only way to stop synchronous work) and is reported
 * as `over-limit` (a sync keeps what it had indexed of it); the next page
 * starts a new thread.
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

/** What became of a job: its result; a page no parser can read (`failed`); or a page over a limit (`overLimit`: on a busier machine it may pass). */
type Outcome = { result: unknown } | { failed: true } | { overLimit: true };
type Pending = { job: ParseJob; settle: (outcome: Outcome) => void; fail: (error: Error) => void };

const workerUrl = new URL("./page-parse-worker.mjs", import.meta.url);

export function createPageParser({ timeLimitMs = 20_000, memoryLimitMb = 1024 }: PageParserOptions = {}): PageParser {
  const queue: Pending[] = [];
  let worker: Worker | null = null;
  let ready = false;
  let current: Pending | null = null;
  let timer: NodeJS.Timeout | undefined;

  const finish = (outcome: Outcome) => {
    clearTimeout(timer);
    const done = current;
    current = null;
    done?.settle(outcome);
    next();
  };

  const start = () => {
    const started = new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb } });
    worker = started;
    ready = false;
    started.on("message", (message: "ready" | { result: unknown } | { failed: true }) => {
      if (started !== worker) return;
      if (message === "ready") {
        ready = true;
        next();
      } else finish(message);
    });
    started.on("error", () => {}); // its exit follows and says what matters
    started.on("exit", () => {
      if (started !== worker) return; // ended on purpose, already replaced
      worker = null;
      if (current) return finish({ overLimit: true }); // out of memory, or a crash, on this page
      if (!ready) {
        // It never started: a broken install, not a bad page. Say so rather than skip every page.
        const error = new Error("The page parser's thread could not start.");
        for (const pending of queue.splice(0)) pending.fail(error);
      }
    });
  };

  const next = () => {
    if (current) return;
    if (queue.length === 0) {
      worker?.unref(); // an idle parser keeps no process alive
      return;
    }
    if (!worker) return start();
    worker.ref();
    if (!ready) return;
    current = queue.shift()!;
    worker.postMessage(current.job);
    timer = setTimeout(() => {
      const stuck = worker;
      worker = null;
      void stuck?.terminate();
      finish({ overLimit: true });
    }, timeLimitMs);
  };

  const run = (job: ParseJob) =>
    new Promise<Outcome>((settle, fail) => {
      queue.push({ job, settle, fail });
      next();
    });

  return {
    async parsePage(bytes, doc, sourceId, baseUrl) {
      const outcome = await run({ kind: "page", bytes, doc: { relPath: doc.relPath, ...(doc.url && { url: doc.url }) }, sourceId, baseUrl });
      if ("result" in outcome) return outcome.result as ParseResult;
      return { skipped: "overLimit" in outcome ? "over-limit" : "unreadable" };
    },
    async pageHrefs(html, base) {
      const outcome = await run({ kind: "hrefs", html, base });
      if ("result" in outcome) return outcome.result as string[];
      return "overLimit" in outcome ? "over-limit" : null;
    },
    async close() {
      const closing = worker;
      worker = null;
      for (const pending of queue.splice(0)) pending.settle({ overLimit: true });
      if (current) finish({ overLimit: true });
      await closing?.terminate();
    },
  };
}

let shared: PageParser | undefined;
/** The process's parser: one thread, started with the first page and idle (unreferenced) between syncs. */
export const sharedPageParser = () => (shared ??= createPageParser());
