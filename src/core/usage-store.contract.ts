import { describe, expect, it } from "vitest";
import type { NewServedCompletion, ServedCompletionStore } from "./served-completions.ts";
import type { UsageIncrement, UsageStore } from "./usage-store.ts";

export interface UsageStoresUnderTest {
  usage: UsageStore;
  served: ServedCompletionStore;
  cleanup?(): Promise<void>;
}

const inc = (over: Partial<UsageIncrement> = {}): UsageIncrement => ({
  keyId: "k1",
  day: "2026-11-20",
  model: "agent",
  servedBy: "extractive/docent-extractive-1",
  requests: 1,
  promptTokens: 10,
  completionTokens: 20,
  ...over,
});

const served = (id: string, over: Partial<NewServedCompletion> = {}): NewServedCompletion => ({
  id,
  keyId: "k1",
  createdAt: new Date("2026-11-20T10:00:00.000Z"),
  model: "agent",
  servedBy: "extractive/docent-extractive-1",
  interface: "rest",
  sourceIds: ["s1"],
  references: [{ url: "https://d.example/a.html#x", title: "A", sourceId: "s1" }],
  closest: [
    { url: "https://d.example/a.html#x", title: "A", sourceId: "s1" },
    { url: "https://d.example/b.html", title: "B", sourceId: "s1" },
  ],
  refused: false,
  coverage: 0.75,
  question: "How do I vacuum?",
  answer: "Run VACUUM [1].",
  ...over,
});

/**
 * The contract of the usage ports (Prisma on SQLite and on PostgreSQL):
 * increments add up per (key, day, model, servedBy) row, also when two
 * writers create the same row at once; served completions round-trip, are
 * rated only by the key they were served to, and lose their text on request.
 */
export function usageStoreContract(name: string, setup: () => Promise<UsageStoresUnderTest>) {
  describe(`Usage stores contract: ${name}`, () => {
    const withStores = async (test: (s: UsageStoresUnderTest) => Promise<void>) => {
      const stores = await setup();
      try {
        await test(stores);
      } finally {
        await stores.cleanup?.();
      }
    };

    it("adds increments to one row per key, day, model and answering model", () =>
      withStores(async ({ usage }) => {
        await usage.add([inc(), inc({ model: "provider_a", servedBy: "openai/gpt-x" }), inc({ keyId: "k2" })]);
        await usage.add([inc({ requests: 2, promptTokens: 5, completionTokens: 7 }), inc({ day: "2026-11-21" })]);
        await usage.add([]);
        expect(await usage.list({ sinceDay: "2026-11-01" })).toEqual([
          inc({ requests: 3, promptTokens: 15, completionTokens: 27 }),
          inc({ model: "provider_a", servedBy: "openai/gpt-x" }),
          inc({ keyId: "k2" }),
          inc({ day: "2026-11-21" }),
        ]);
      }));

    it("lists one key's rows between two days, both included", () =>
      withStores(async ({ usage }) => {
        await usage.add(["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"].flatMap((day) => [inc({ day }), inc({ day, keyId: "k2" })]));
        const days = (rows: UsageIncrement[]) => rows.map((r) => `${r.keyId} ${r.day}`);
        expect(days(await usage.list({ keyId: "k1", sinceDay: "2026-11-19", untilDay: "2026-11-20" }))).toEqual(["k1 2026-11-19", "k1 2026-11-20"]);
        expect(days(await usage.list({ keyId: "k2", sinceDay: "2026-11-21" }))).toEqual(["k2 2026-11-21"]);
        expect(await usage.list({ keyId: "nobody", sinceDay: "2026-01-01" })).toEqual([]);
      }));

    it("keeps token counts past 32 bits", () =>
      withStores(async ({ usage }) => {
        await usage.add([inc({ promptTokens: 3_000_000_000, completionTokens: 1 })]);
        await usage.add([inc({ promptTokens: 3_000_000_000, completionTokens: 1 })]);
        expect((await usage.list({ sinceDay: "2026-11-20" }))[0]).toMatchObject({ promptTokens: 6_000_000_000, completionTokens: 2 });
      }));

    it("loses no increment when several writers create the same row at once", () =>
      withStores(async ({ usage }) => {
        await Promise.all(Array.from({ length: 8 }, () => usage.add([inc(), inc({ model: "provider_b", servedBy: "anthropic/c" })])));
        const rows = await usage.list({ sinceDay: "2026-11-20" });
        expect(rows.map((r) => [r.model, r.requests, r.promptTokens])).toEqual([
          ["agent", 8, 80],
          ["provider_b", 8, 80],
        ]);
      }));

    it("stores served completions and lists them by time, oldest first", () =>
      withStores(async ({ served: store }) => {
        const later = served("chatcmpl-b", {
          createdAt: new Date("2026-11-21T09:00:00.000Z"),
          refused: true,
          coverage: null,
          references: [],
          question: null,
          answer: null,
        });
        await store.add([later, served("chatcmpl-a")]);
        await store.add([]);
        const all = await store.list({ since: new Date("2026-11-01T00:00:00Z") });
        expect(all).toEqual([
          { ...served("chatcmpl-a"), rating: null, comment: null, ratedAt: null },
          { ...later, rating: null, comment: null, ratedAt: null },
        ]);
        expect((await store.list({ since: new Date("2026-11-21T00:00:00Z") })).map((r) => r.id)).toEqual(["chatcmpl-b"]);
        expect((await store.list({ since: new Date("2026-11-01T00:00:00Z"), until: new Date("2026-11-21T00:00:00Z") })).map((r) => r.id)).toEqual([
          "chatcmpl-a",
        ]);
      }));

    it("rates a completion only for the key it was served to; a later rating replaces the earlier", () =>
      withStores(async ({ served: store }) => {
        await store.add([served("chatcmpl-a")]);
        const at = new Date("2026-11-20T11:00:00.000Z");
        expect(await store.rate("chatcmpl-a", "k2", { rating: "down", comment: null, at })).toBe(false);
        expect(await store.rate("chatcmpl-zzz", "k1", { rating: "down", comment: null, at })).toBe(false);
        expect((await store.list({ since: new Date(0) }))[0]).toMatchObject({ rating: null });
        expect(await store.rate("chatcmpl-a", "k1", { rating: "down", comment: "wrong page", at })).toBe(true);
        expect((await store.list({ since: new Date(0) }))[0]).toMatchObject({ rating: "down", comment: "wrong page", ratedAt: at });
        expect(await store.rate("chatcmpl-a", "k1", { rating: "up", comment: null, at })).toBe(true);
        expect((await store.list({ since: new Date(0) }))[0]).toMatchObject({ rating: "up", comment: null });
        // Writing the same record again (a retried batch) keeps its rating.
        await store.add([served("chatcmpl-a", { question: "changed" })]);
        expect((await store.list({ since: new Date(0) }))[0]).toMatchObject({ rating: "up", question: "How do I vacuum?" });
      }));

    it("writes a backlog of thousands of records, and a retried one that partly went through, each record once", () =>
      withStores(async ({ served: store }) => {
        const backlog = Array.from({ length: 2_500 }, (_, i) => served(`chatcmpl-${String(i).padStart(5, "0")}`, { answer: "Run VACUUM [1]. ".repeat(100) }));
        await store.add(backlog.slice(0, 1_200));
        await store.rate("chatcmpl-00007", "k1", { rating: "down", comment: null, at: new Date("2026-11-20T12:00:00Z") });
        await store.add(backlog);
        const all = await store.list({ since: new Date(0) });
        expect(all).toHaveLength(2_500);
        expect(new Set(all.map((r) => r.id)).size).toBe(2_500);
        expect(all.find((r) => r.id === "chatcmpl-00007")).toMatchObject({ rating: "down" });
      }));

    it("deletes completions served before a time, rated or not, and keeps the later ones", () =>
      withStores(async ({ served: store }) => {
        await store.add([served("chatcmpl-old"), served("chatcmpl-new", { createdAt: new Date("2026-11-25T10:00:00.000Z") })]);
        await store.rate("chatcmpl-old", "k1", { rating: "down", comment: null, at: new Date("2026-11-20T12:00:00Z") });
        expect(await store.forget(new Date("2026-11-22T00:00:00Z"))).toBe(1);
        expect(await store.forget(new Date("2026-11-22T00:00:00Z"))).toBe(0);
        expect((await store.list({ since: new Date(0) })).map((r) => r.id)).toEqual(["chatcmpl-new"]);
        expect(await store.rate("chatcmpl-old", "k1", { rating: "up", comment: null, at: new Date() })).toBe(false);
      }));

    it("forgets question, answer and comment text of completions served before a time, keeping the rest", () =>
      withStores(async ({ served: store }) => {
        await store.add([served("chatcmpl-old"), served("chatcmpl-new", { createdAt: new Date("2026-11-25T10:00:00.000Z") })]);
        await store.rate("chatcmpl-old", "k1", { rating: "down", comment: "missing", at: new Date("2026-11-20T12:00:00Z") });
        expect(await store.forgetText(new Date("2026-11-22T00:00:00Z"))).toBe(1);
        expect(await store.forgetText(new Date("2026-11-22T00:00:00Z"))).toBe(0);
        const [old, recent] = await store.list({ since: new Date(0) });
        expect(old).toMatchObject({ id: "chatcmpl-old", question: null, answer: null, comment: null, rating: "down", refused: false, coverage: 0.75 });
        expect(old!.closest).toHaveLength(2);
        expect(recent).toMatchObject({ id: "chatcmpl-new", question: "How do I vacuum?", answer: "Run VACUUM [1]." });
      }));
  });
}
