import { describe, expect, it } from "vitest";
import { type AskedQuestion, answerSample, auditSample, tallyAudit, type Verdict, wilson } from "../bench/eval/audit-sample.ts";

const ask = (id: string, goldFirst: boolean, refs = [`https://docs.example/${id}.html#a`]): AskedQuestion => ({
  set: "heldout",
  id,
  mode: "explicit",
  question: `question ${id}`,
  gold: [`https://docs.example/${id}.html`],
  refs,
  goldFirst,
});

describe("the reader audit of first references", () => {
  const asks = [
    ...Array.from({ length: 30 }, (_, i) => ask(`g${i}`, true)),
    ...Array.from({ length: 12 }, (_, i) => ask(`x${i}`, false)),
    ask("refused", false, []),
  ];

  it("judges every ask whose first reference is no gold page and a sample of the others, shuffled in among them", () => {
    const { items, population } = auditSample(asks, { goldFirst: 10, seed: 3 });
    expect(population).toEqual({ asks: 43, refused: 1, goldFirst: 30, notGold: 12 });
    expect(
      items
        .filter((i) => !i.ask.goldFirst)
        .map((i) => i.ask.id)
        .sort(),
    ).toEqual(
      asks
        .slice(30, 42)
        .map((a) => a.id)
        .sort(),
    );
    expect(items.filter((i) => i.ask.goldFirst)).toHaveLength(10);
    expect(items.map((i) => i.n)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    // Not the not-gold ones first: a reader must not be able to tell the kinds apart by their place.
    expect(items.slice(0, 12).every((i) => !i.ask.goldFirst)).toBe(false);
    // The same answers and seed give the same items.
    expect(auditSample(asks, { goldFirst: 10, seed: 3 }).items.map((i) => i.ask.id)).toEqual(items.map((i) => i.ask.id));
  });

  it("scales the gold-first sample to its number and counts every ask, refused ones too, in the share", () => {
    const { items, population } = auditSample(asks, { goldFirst: 10, seed: 3 });
    const keys = items.map(({ n, ask: a }) => ({ n, set: a.set, id: a.id, reference: a.refs[0]!, goldFirst: a.goldFirst }));
    const verdicts = new Map<number, Verdict>();
    let gold = 0;
    let other = 0;
    for (const k of keys) {
      // Gold-first: 8 of 10 answer, 2 partly; the others: 3 of 12 answer, 3 partly, 6 no.
      if (k.goldFirst) {
        verdicts.set(k.n, gold < 8 ? "answers" : "partly");
        gold++;
      } else {
        verdicts.set(k.n, other < 3 ? "answers" : other < 6 ? "partly" : "no");
        other++;
      }
    }
    const t = tallyAudit(keys, verdicts, population);
    expect(t.gold).toEqual({ answers: 8, partly: 2, no: 0, judged: 10 });
    expect(t.other).toEqual({ answers: 3, partly: 3, no: 6, judged: 12 });
    // (30 × 8/10 + 3) / 43 and (30 + 6) / 43.
    expect(t.answers).toBeCloseTo(27 / 43, 10);
    expect(t.atLeastPartly).toBeCloseTo(36 / 43, 10);
    expect(t.goldFirstShare).toBeCloseTo(30 / 43, 10);
  });

  it("samples answers at random, refusals included, the same for the same seed", () => {
    const { items, population } = answerSample(asks, { size: 20, seed: 5 });
    expect(items).toHaveLength(20);
    expect(new Set(items.map((i) => i.ask.id)).size).toBe(20);
    expect(population).toMatchObject({ of: "answer", asks: 43, refused: 1, goldFirst: 30, notGold: 12 });
    // Every ask can be drawn: over seeds, the refused one is.
    expect([1, 2, 3, 4, 5, 6, 7, 8].some((seed) => answerSample(asks, { size: 20, seed }).items.some((i) => i.ask.id === "refused"))).toBe(true);
    expect(answerSample(asks, { size: 20, seed: 5 }).items.map((i) => i.ask.id)).toEqual(items.map((i) => i.ask.id));
    expect(answerSample(asks, { size: 20, seed: 6 }).items.map((i) => i.ask.id)).not.toEqual(items.map((i) => i.ask.id));
  });

  it("puts a 95% Wilson interval around a sampled share", () => {
    const [low, high] = wilson(45, 90);
    expect(low).toBeCloseTo(0.399, 3);
    expect(high).toBeCloseTo(0.601, 3);
    expect(wilson(0, 90)[0]).toBeCloseTo(0, 12);
    expect(wilson(90, 90)[1]).toBeCloseTo(1, 12);
  });
});
