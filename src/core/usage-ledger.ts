import type { CompletionObserver, CompletionOutcome } from "./completion-outcome.ts";
import type { NewServedCompletion, ServedCompletionStore } from "./served-completions.ts";
import { type UsageIncrement, type UsageStore, utcDay } from "./usage-store.ts";

export interface UsageLedgerOptions {
  usage: UsageStore;
  served: ServedCompletionStore;
  /** Keep question and answer text with each served completion (STORE_QUESTIONS). */
  storeQuestions: boolean;
  /** How often buffered records are written. */
  flushIntervalMs?: number;
  /** Served completions kept while the database cannot be written; older ones are dropped past it. */
  maxPendingServed?: number;
  onError?: (error: unknown) => void;
}

export interface UsageLedger extends CompletionObserver {
  /** Writes what is buffered now (serialised with any write in progress). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left: the last thing before the database closes. */
  close(): Promise<void>;
}

const rowKey = (i: Pick<UsageIncrement, "keyId" | "day" | "model" | "servedBy">) => JSON.stringify([i.keyId, i.day, i.model, i.servedBy]);

/**
 * Follows completion outcomes for usage per key and the served-completions
 * record. Noting an outcome only touches memory, so a reply never waits for
 * the database; a timer writes the batch (usage as increments summed per
 * row), and `close` writes the rest on a graceful stop. A failed write keeps
 * its batch for the next one.
 */
export function createUsageLedger({
  usage,
  served,
  storeQuestions,
  flushIntervalMs = 1000,
  maxPendingServed = 10_000,
  onError = () => {},
}: UsageLedgerOptions): UsageLedger {
  let increments = new Map<string, UsageIncrement>();
  let records: NewServedCompletion[] = [];
  let writing: Promise<void> = Promise.resolve();

  const addIncrement = (i: UsageIncrement) => {
    const key = rowKey(i);
    const row = increments.get(key);
    if (!row) increments.set(key, { ...i });
    else {
      row.requests += i.requests;
      row.promptTokens += i.promptTokens;
      row.completionTokens += i.completionTokens;
    }
  };
  const keepRecords = (more: NewServedCompletion[]) => {
    records = more.concat(records);
    if (records.length > maxPendingServed) records = records.slice(records.length - maxPendingServed);
  };

  async function write() {
    const batch = [...increments.values()];
    const recordBatch = records;
    increments = new Map();
    records = [];
    let failure: unknown = null;
    if (batch.length)
      await usage.add(batch).catch((error) => {
        batch.forEach(addIncrement);
        failure = error;
      });
    if (recordBatch.length)
      await served.add(recordBatch).catch((error) => {
        keepRecords(recordBatch);
        failure = error;
      });
    if (failure) throw failure;
  }
  const flush = () => {
    writing = writing.catch(() => {}).then(write);
    return writing;
  };
  const timer = setInterval(() => {
    if (increments.size || records.length) flush().catch(onError);
  }, flushIntervalMs);
  timer.unref();

  return {
    onCompletion(outcome: CompletionOutcome) {
      // Completions run without a key (none today) have no one to count against.
      if (!outcome.keyId) return;
      const servedBy = `${outcome.provider}/${outcome.modelId}`;
      const at = new Date(outcome.timings.startedAt);
      addIncrement({
        keyId: outcome.keyId,
        day: utcDay(at),
        model: outcome.model,
        servedBy,
        requests: 1,
        promptTokens: outcome.usage.promptTokens,
        completionTokens: outcome.usage.completionTokens,
      });
      if (outcome.status !== "completed") return;
      records.push({
        id: outcome.completionId,
        keyId: outcome.keyId,
        createdAt: new Date(outcome.timings.startedAt),
        model: outcome.model,
        servedBy,
        interface: outcome.interface,
        sourceIds: outcome.sourceIds,
        references: outcome.references.map(({ url, title, sourceId }) => ({ url, title, sourceId })),
        closest: (outcome.grounding?.closest ?? []).map(({ url, title, sourceId }) => ({ url, title, sourceId })),
        // A model's own refusal is no gap in the documentation: the report is for what to write next.
        refused: (outcome.grounding?.refused ?? false) && !outcome.grounding?.modelRefusal,
        // Nor is it a weakly grounded answer: the model said nothing of the sources.
        coverage: outcome.grounding?.modelRefusal ? null : (outcome.grounding?.coverage ?? null),
        question: storeQuestions ? outcome.question : null,
        answer: storeQuestions ? outcome.answer : null,
      });
      if (records.length > maxPendingServed) records.shift();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
