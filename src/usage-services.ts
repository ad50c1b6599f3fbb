import type { PrismaClient } from "@prisma/client";
import type { Config } from "./config.ts";
import { createFeedback, type SubmitFeedback } from "./core/feedback.ts";
import type { ServedCompletionStore } from "./core/served-completions.ts";
import { createUsageLedger, type UsageLedger } from "./core/usage-ledger.ts";
import { createUsageReport, type ReadUsage } from "./core/usage-report.ts";
import type { UsageStore } from "./core/usage-store.ts";
import { createPrismaServedCompletions } from "./db/prisma-served-completions.ts";
import { createPrismaUsageStore } from "./db/prisma-usage-store.ts";

/** Usage per key, served completions, feedback: what follows completions after they are served. */
export interface UsageServices {
  store: UsageStore;
  served: ServedCompletionStore;
  /** The completion observer that records usage and served completions (register it in completionObservers). */
  ledger: UsageLedger;
  read: ReadUsage;
  submitFeedback: SubmitFeedback;
  /** Clears stored text older than QUESTION_RETENTION_DAYS; run at start and hourly. */
  forgetOldText(): Promise<number>;
  /** Deletes served completions older than SERVED_RETENTION_DAYS (also at start and hourly); how many. */
  forgetOldServed(): Promise<number>;
  /** Writes what is buffered and stops the timers: before the database closes. */
  close(): Promise<void>;
}

const HOUR_MS = 3_600_000;

export function createUsageServices(
  prisma: PrismaClient,
  config: Pick<Config, "STORE_QUESTIONS" | "QUESTION_RETENTION_DAYS" | "SERVED_RETENTION_DAYS" | "USAGE_FLUSH_MS">,
  log: (line: string) => void = (l) => console.error(l),
): UsageServices {
  const store = createPrismaUsageStore(prisma);
  const served = createPrismaServedCompletions(prisma);
  const ledger = createUsageLedger({
    usage: store,
    served,
    storeQuestions: config.STORE_QUESTIONS,
    flushIntervalMs: config.USAGE_FLUSH_MS,
    onError: (error) => log(`docent: usage could not be written yet (kept for the next try): ${(error as Error)?.message ?? error}`),
  });
  const forgetOldText = () => served.forgetText(new Date(Date.now() - config.QUESTION_RETENTION_DAYS * 24 * HOUR_MS));
  const forgetOldServed = () => served.forget(new Date(Date.now() - config.SERVED_RETENTION_DAYS * 24 * HOUR_MS));
  let forgetting: Promise<unknown> = Promise.resolve();
  const forget = () => {
    forgetting = Promise.all([
      forgetOldText().catch((error) => log(`docent: old question text could not be cleared: ${(error as Error)?.message ?? error}`)),
      forgetOldServed().catch((error) => log(`docent: old served completions could not be deleted: ${(error as Error)?.message ?? error}`)),
    ]);
  };
  forget();
  const retention = setInterval(forget, HOUR_MS);
  retention.unref();
  return {
    store,
    served,
    ledger,
    read: createUsageReport({ usage: store, flush: ledger.flush }),
    submitFeedback: createFeedback({ served, flush: ledger.flush, keepComments: config.STORE_QUESTIONS }),
    forgetOldText,
    forgetOldServed,
    async close() {
      clearInterval(retention);
      await forgetting;
      await ledger.close();
    },
  };
}
