import { describe, expect, it } from "vitest";
import type { CompletionOutcome } from "./completion-outcome.ts";
import type { NewServedCompletion, ServedCompletionStore } from "./served-completions.ts";
import { createUsageLedger } from "./usage-ledger.ts";
import type { UsageIncrement, UsageStore } from "./usage-store.ts";

/** Stores that keep what they are given, and can be made to fail. */
function memoryStores() {
  const batches: UsageIncrement[][] = [];
  const records: NewServedCompletion[] = [];
  let failing = false;
  const usage: UsageStore = {
    async add(increments) {
      if (failing) throw new Error("database unavailable");
      batches.push(increments.map((i) => ({ ...i })));
    },
    list: async () => [],
  };
  const served: ServedCompletionStore = {
    async add(more) {
      if (failing) throw new Error("database unavailable");
      records.push(...more);
    },
    rate: async () => false,
    list: async () => [],
    forgetText: async () => 0,
    forget: async () => 0,
  };
  return { usage, served, batches, records, fail: (on: boolean) => void (failing = on) };
}

const outcome = (over: Partial<CompletionOutcome> = {}): CompletionOutcome => ({
  requestId: "r1",
  interface: "rest",
  keyId: "k1",
  completionId: "chatcmpl-1",
  created: Date.parse("2026-11-20T23:59:59Z") / 1000,
  model: "agent",
  provider: "extractive",
  modelId: "docent-extractive-1",
  sourceIds: ["s1"],
  references: [{ url: "https://d.example/a.html", title: "A", sourceId: "s1" }],
  grounding: { refused: false, coverage: 0.8, closest: [{ url: "https://d.example/a.html", title: "A", sourceId: "s1" }], retrievalMs: 1 },
  status: "completed",
  finishReason: "stop",
  usage: { promptTokens: 100, completionTokens: 40, reasoningTokens: 0 },
  error: null,
  question: "How do I vacuum?",
  answer: "Run VACUUM.",
  timings: { startedAt: Date.parse("2026-11-20T23:59:59Z"), openMs: 1, firstTokenMs: 2, totalMs: 3 },
  ...over,
});

describe("usage ledger", () => {
  it("notes outcomes in memory and writes them as one batch: usage summed per row, completed ones as served records", async () => {
    const stores = memoryStores();
    const ledger = createUsageLedger({ ...stores, storeQuestions: false, flushIntervalMs: 60_000 });
    ledger.onCompletion(outcome());
    ledger.onCompletion(outcome({ completionId: "chatcmpl-2", usage: { promptTokens: 1, completionTokens: 2, reasoningTokens: 0 } }));
    ledger.onCompletion(outcome({ completionId: "chatcmpl-3", status: "abandoned", usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 } }));
    ledger.onCompletion(outcome({ completionId: "chatcmpl-4", model: "provider_a", provider: "openai", modelId: "gpt-x" }));
    ledger.onCompletion(outcome({ completionId: "chatcmpl-5", keyId: null }));
    // Nothing is written while a reply is being served.
    expect(stores.batches).toEqual([]);
    await ledger.flush();
    expect(stores.batches).toEqual([
      [
        { keyId: "k1", day: "2026-11-20", model: "agent", servedBy: "extractive/docent-extractive-1", requests: 3, promptTokens: 101, completionTokens: 42 },
        { keyId: "k1", day: "2026-11-20", model: "provider_a", servedBy: "openai/gpt-x", requests: 1, promptTokens: 100, completionTokens: 40 },
      ],
    ]);
    expect(stores.records.map((r) => r.id)).toEqual(["chatcmpl-1", "chatcmpl-2", "chatcmpl-4"]);
    expect(stores.records[0]).toMatchObject({
      keyId: "k1",
      refused: false,
      coverage: 0.8,
      question: null,
      answer: null,
      closest: [{ url: "https://d.example/a.html" }],
    });
    await ledger.flush();
    expect(stores.batches).toHaveLength(1);
    await ledger.close();
  });

  it("keeps question and answer text only when asked to", async () => {
    const stores = memoryStores();
    const ledger = createUsageLedger({ ...stores, storeQuestions: true, flushIntervalMs: 60_000 });
    ledger.onCompletion(outcome());
    await ledger.close();
    expect(stores.records[0]).toMatchObject({ question: "How do I vacuum?", answer: "Run VACUUM." });
  });

  it("records a model's own refusal as no gap in the documentation, and the sources' refusal as one", async () => {
    const stores = memoryStores();
    const ledger = createUsageLedger({ ...stores, storeQuestions: false, flushIntervalMs: 60_000 });
    const grounding = { coverage: 0.9, closest: [], retrievalMs: 1 };
    ledger.onCompletion(outcome({ references: [], grounding: { ...grounding, refused: true, byModel: true, modelRefusal: true } }));
    ledger.onCompletion(outcome({ completionId: "chatcmpl-2", references: [], grounding: { ...grounding, refused: true, byModel: true } }));
    await ledger.close();
    expect(stores.records.map((r) => [r.refused, r.coverage])).toEqual([
      [false, null],
      [true, 0.9],
    ]);
  });

  it("keeps a batch the database refused and writes it with the next one; close writes what is left", async () => {
    const stores = memoryStores();
    const ledger = createUsageLedger({ ...stores, storeQuestions: false, flushIntervalMs: 60_000 });
    ledger.onCompletion(outcome());
    stores.fail(true);
    await expect(ledger.flush()).rejects.toThrow("database unavailable");
    ledger.onCompletion(outcome({ completionId: "chatcmpl-2" }));
    stores.fail(false);
    await ledger.close();
    expect(stores.batches).toEqual([[expect.objectContaining({ requests: 2, promptTokens: 200, completionTokens: 80 })]]);
    expect(stores.records.map((r) => r.id).sort()).toEqual(["chatcmpl-1", "chatcmpl-2"]);
  });

  it("writes on its timer without being asked", async () => {
    const stores = memoryStores();
    const ledger = createUsageLedger({ ...stores, storeQuestions: false, flushIntervalMs: 20 });
    ledger.onCompletion(outcome());
    await expect.poll(() => stores.batches.length, { timeout: 2000 }).toBe(1);
    await ledger.close();
  });
});
