/**
 * A reader's audit of first references. The eval scores the first reference
 * by page against the question's gold pages; it cannot tell a gold page cited
 * at a section that does not answer, nor another page that does (gold lists
 * can be short). Readers who see only the question and the section (never the
 * gold pages, never which kind an item is) judge whether it answers.
 *
 *   npm run eval -- --set heldout,… --answers A.jsonl
 *   npx tsx bench/eval/reader-audit.ts build --answers A.jsonl --out DIR [--of first-reference|answer] [--mode explicit] [--gold-first 60] [--sample 90] [--parts 3]
 *   (readers write DIR/verdicts-*.jsonl: {"n", "verdict": "answers"|"partly"|"no", "why"})
 *   npx tsx bench/eval/reader-audit.ts tally DIR
 *
 * Every ask whose first reference is not a gold page is judged; gold-first
 * ones are sampled (shuffled in among them) and scaled to their number.
 * With `--of answer` readers judge the answer itself (the question, the
 * answer's text and its references' URLs) for a random sample of asks,
 * refusals included: what a person asking gets, with no language model.
 */
export interface AskedQuestion {
  set: string;
  id: string;
  mode: "explicit" | "agent";
  question: string;
  gold: string[];
  refs: string[];
  goldFirst: boolean;
  /** The answer's text (written by `npm run eval -- --answers`). */
  answer?: string;
}

export interface AuditKey {
  n: number;
  set: string;
  id: string;
  reference: string;
  goldFirst: boolean;
}

export interface Population {
  /** What was judged: the first reference's section, or a random sample's answers. */
  of?: "first-reference" | "answer";
  asks: number;
  refused: number;
  goldFirst: number;
  notGold: number;
}

export type Verdict = "answers" | "partly" | "no";

/** A small seeded generator (an LCG), so the same answers give the same sample and order. */
function seeded(seed: number) {
  let state = seed % 2147483648;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The asks to judge, numbered in a shuffled order: every one whose first reference is no gold page, and a sample of the others. */
export function auditSample(asks: readonly AskedQuestion[], { goldFirst, seed = 1 }: { goldFirst: number; seed?: number }) {
  const random = seeded(seed);
  const answered = asks.filter((a) => a.refs.length > 0);
  const notGold = answered.filter((a) => !a.goldFirst);
  const gold = shuffled(
    answered.filter((a) => a.goldFirst),
    random,
  ).slice(0, goldFirst);
  const items = shuffled([...notGold, ...gold], random).map((ask, i) => ({ n: i + 1, ask }));
  const population: Population = {
    asks: asks.length,
    refused: asks.length - answered.length,
    goldFirst: answered.length - notGold.length,
    notGold: notGold.length,
  };
  return { items, population };
}

/** A random sample of asks (refused ones too), numbered in their shuffled order. */
export function answerSample(asks: readonly AskedQuestion[], { size, seed = 1 }: { size: number; seed?: number }) {
  const items = shuffled(asks, seeded(seed))
    .slice(0, size)
    .map((ask, i) => ({ n: i + 1, ask }));
  const answered = asks.filter((a) => a.refs.length > 0);
  const goldFirst = answered.filter((a) => a.goldFirst).length;
  const population: Population = { of: "answer", asks: asks.length, refused: asks.length - answered.length, goldFirst, notGold: answered.length - goldFirst };
  return { items, population };
}

/** A share's 95% Wilson interval: a sample of 90 pins a share to about ±0.1. */
export function wilson(hits: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.96;
  const p = hits / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Verdict counts by kind, and the share of all asks whose first reference answers (gold-first scaled from its sample). */
export function tallyAudit(keys: readonly AuditKey[], verdicts: ReadonlyMap<number, Verdict>, population: Population) {
  const count = (goldFirst: boolean) => {
    const c = { answers: 0, partly: 0, no: 0, judged: 0 };
    for (const k of keys) {
      const v = verdicts.get(k.n);
      if (k.goldFirst !== goldFirst || !v) continue;
      c[v]++;
      c.judged++;
    }
    return c;
  };
  const gold = count(true);
  const other = count(false);
  const scaled = (v: "answers" | "partly") => (gold.judged ? (population.goldFirst * gold[v]) / gold.judged : 0);
  // Not-gold asks are all judged, so their counts stand as they are (scaled only if some verdicts are missing).
  const others = (v: "answers" | "partly") => (other.judged ? (population.notGold * other[v]) / other.judged : 0);
  const answers = (scaled("answers") + others("answers")) / population.asks;
  const atLeastPartly = (scaled("answers") + scaled("partly") + others("answers") + others("partly")) / population.asks;
  return { gold, other, answers, atLeastPartly, goldFirstShare: population.goldFirst / population.asks };
}
