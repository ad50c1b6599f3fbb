import { Worker } from "node:worker_threads";

/**
 * A thread that runs one job at a time, each within a time and memory limit.
 * What it runs comes from outside docent (web pages, callers' JSON Schemas),
 * and libraries have slow cases nobody has found yet: on the server's thread
 * one such job would stall every request. A job over a limit ends the thread
 * (the only way to stop synchronous work) and is reported as `overLimit`; the
 * next job starts a new thread. The thread's script posts "ready" once loaded,
 * then `{ result }` or `{ failed: true }` for each job it is sent.
 */
export interface LimitedThread<Job> {
  /**
   * Runs `job` when its turn comes. Jobs are served one owner at a time in
   * turn (each owner's own in order), so one caller's many jobs cannot keep
   * another's waiting behind all of them; a job whose signal aborts before it
   * starts is dropped, rejecting with the signal's reason.
   */
  run(job: Job, options?: { owner?: string | null; signal?: AbortSignal }): Promise<ThreadOutcome>;
  /** Starts the thread now, so the first job does not wait for it to load. */
  warm(): void;
  close(): Promise<void>;
}

/** What became of a job: its result; a job the thread threw on (`failed`); or one over a limit (`overLimit`). */
export type ThreadOutcome = { result: unknown } | { failed: true } | { overLimit: true };

export interface LimitedThreadOptions {
  /** The thread's script (plain JavaScript, so it starts the same under tsx, vitest and dist/). */
  script: URL;
  timeLimitMs: number;
  memoryLimitMb: number;
  /** Said when the thread cannot start at all: a broken install, not a bad job. */
  name: string;
  /** Ends the thread after this long without a job (its heap is tens of MB); the next job starts a new one. Default: kept. */
  idleMs?: number;
}

type Pending<Job> = { job: Job; settle: (outcome: ThreadOutcome) => void; fail: (error: Error) => void; signal?: AbortSignal; onAbort?: () => void };

export function createLimitedThread<Job>({ script, timeLimitMs, memoryLimitMb, name, idleMs }: LimitedThreadOptions): LimitedThread<Job> {
  const queue = createFairQueue<Pending<Job>>();
  let worker: Worker | null = null;
  let ready = false;
  let current: Pending<Job> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let idleTimer: NodeJS.Timeout | undefined;

  const endIdle = () => {
    const idle = worker;
    worker = null;
    void idle?.terminate();
  };

  const finish = (outcome: ThreadOutcome) => {
    clearTimeout(timer);
    const done = current;
    current = null;
    done?.settle(outcome);
    next();
  };

  const start = () => {
    const started = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb } });
    worker = started;
    ready = false;
    started.on("message", (message: "ready" | ThreadOutcome) => {
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
      if (current) return finish({ overLimit: true }); // out of memory, or a crash, on this job
      if (!ready) {
        const error = new Error(`The ${name}'s thread could not start.`);
        for (const pending of queue.drain()) pending.fail(error);
      }
    });
  };

  const next = () => {
    if (current) return;
    if (queue.size() === 0) {
      worker?.unref(); // an idle thread keeps no process alive
      if (worker && idleMs !== undefined) idleTimer ??= setTimeout(endIdle, idleMs).unref();
      return;
    }
    clearTimeout(idleTimer);
    idleTimer = undefined;
    if (!worker) return start();
    worker.ref();
    if (!ready) return;
    current = queue.shift()!;
    if (current.onAbort) current.signal?.removeEventListener("abort", current.onAbort);
    worker.postMessage(current.job);
    timer = setTimeout(() => {
      const stuck = worker;
      worker = null;
      void stuck?.terminate();
      finish({ overLimit: true });
    }, timeLimitMs);
  };

  return {
    run: (job, { owner = null, signal } = {}) =>
      new Promise<ThreadOutcome>((settle, fail) => {
        if (signal?.aborted) return fail(signal.reason);
        const pending: Pending<Job> = { job, settle, fail, signal };
        if (signal) {
          pending.onAbort = () => {
            if (queue.remove(pending)) fail(signal.reason);
          };
          signal.addEventListener("abort", pending.onAbort, { once: true });
        }
        queue.push(owner ?? "", pending);
        next();
      }),
    warm() {
      if (worker) return;
      start();
      worker!.unref();
    },
    async close() {
      clearTimeout(idleTimer);
      const closing = worker;
      worker = null;
      for (const pending of queue.drain()) pending.settle({ overLimit: true });
      if (current) finish({ overLimit: true });
      await closing?.terminate();
    },
  };
}

/** Items queued by owner, taken one owner at a time in turn, each owner's in the order they came. */
function createFairQueue<T>() {
  // A Map keeps insertion order: the owner served goes to the back if it has more.
  const owners = new Map<string, T[]>();
  let size = 0;
  return {
    size: () => size,
    push(owner: string, item: T) {
      const own = owners.get(owner);
      if (own) own.push(item);
      else owners.set(owner, [item]);
      size++;
    },
    shift(): T | undefined {
      const first = owners.entries().next();
      if (first.done) return undefined;
      const [owner, own] = first.value;
      const item = own.shift()!;
      owners.delete(owner);
      if (own.length > 0) owners.set(owner, own);
      size--;
      return item;
    },
    remove(item: T): boolean {
      for (const [owner, own] of owners) {
        const at = own.indexOf(item);
        if (at < 0) continue;
        own.splice(at, 1);
        if (own.length === 0) owners.delete(owner);
        size--;
        return true;
      }
      return false;
    },
    drain(): T[] {
      const all = [...owners.values()].flat();
      owners.clear();
      size = 0;
      return all;
    },
  };
}
