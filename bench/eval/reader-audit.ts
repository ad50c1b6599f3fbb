import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { documentationDir, type EvalSource } from "../debian-docs.ts";
import { pageSections } from "../source-sections.ts";
import { sharedEvalFile } from "./shared-file.ts";

/**
 * A reader's audit of first references. The eval scores the first reference
 * by page against the question's gold pages; it cannot tell a gold page cited
 * at a section that does not answer, nor another page that does (gold lists
 * can be short). Readers who see only the question and the section (never the
 * gold pages, never which kind an item is) judge whether it answers.
 *
 *   npm run eval -- --set heldout,… --answers A.jsonl
 *   npx tsx bench/eval/reader-audit.ts build --answers A.jsonl --out DIR [--mode explicit] [--gold-first 60] [--parts 3]
 *   (readers write DIR/verdicts-*.jsonl: {"n", "verdict": "answers"|"partly"|"no", "why"})
 *   npx tsx bench/eval/reader-audit.ts tally DIR
 *
 * Every ask whose first reference is not a gold page is judged; gold-first
 * ones are sampled (shuffled in among them) and scaled to their number.
 */
export interface AskedQuestion {
  set: string;
  id: string;
  mode: "explicit" | "agent";
  question: string;
  gold: string[];
  refs: string[];
  goldFirst: boolean;
}

export interface AuditKey {
  n: number;
  set: string;
  id: string;
  reference: string;
  goldFirst: boolean;
}

export interface Population {
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

function sectionText(reference: string, sources: readonly EvalSource[], cache: string): string {
  const [page, anchor = ""] = reference.split("#");
  const source = sources.find((s) => page!.startsWith(s.base_url));
  if (!source) return "";
  const file = path.join(documentationDir(source, cache), decodeURIComponent(page!.slice(source.base_url.length)));
  const text = (fs.existsSync(file) ? pageSections(file).section(anchor) : undefined) ?? "";
  const tidy = text.replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n");
  return tidy.length > 3000 ? `${tidy.slice(0, 3000)} …[section continues]` : tidy;
}

const readLines = <T>(file: string): T[] =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      answers: { type: "string" },
      out: { type: "string" },
      mode: { type: "string", default: "explicit" },
      "gold-first": { type: "string", default: "60" },
      parts: { type: "string", default: "3" },
      seed: { type: "string", default: "1" },
      sources: { type: "string", default: sharedEvalFile("sources.json") },
      cache: { type: "string", default: path.resolve(import.meta.dirname, "../../.eval-cache") },
    },
  });
  if (command === "build" && values.answers && values.out) {
    const sources: EvalSource[] = JSON.parse(fs.readFileSync(values.sources!, "utf8"));
    const asks = readLines<AskedQuestion>(values.answers).filter((a) => a.mode === values.mode);
    const { items, population } = auditSample(asks, { goldFirst: Number(values["gold-first"]), seed: Number(values.seed) });
    fs.mkdirSync(values.out, { recursive: true });
    const parts = Math.max(1, Number(values.parts));
    for (let p = 0; p < parts; p++) {
      // What a reader sees: the question and the section, never the gold pages nor which kind an item is.
      const mine = items
        .filter((_, i) => i % parts === p)
        .map(({ n, ask }) => ({ n, question: ask.question, reference: ask.refs[0]!, section: sectionText(ask.refs[0]!, sources, values.cache!) }));
      fs.writeFileSync(path.join(values.out, `items-${p + 1}.jsonl`), `${mine.map((x) => JSON.stringify(x)).join("\n")}\n`);
    }
    const keys: AuditKey[] = items.map(({ n, ask }) => ({ n, set: ask.set, id: ask.id, reference: ask.refs[0]!, goldFirst: ask.goldFirst }));
    fs.writeFileSync(path.join(values.out, "key.jsonl"), `${keys.map((k) => JSON.stringify(k)).join("\n")}\n`);
    fs.writeFileSync(path.join(values.out, "population.json"), `${JSON.stringify(population)}\n`);
    console.log(
      `${items.length} items (${population.notGold} not gold-first, ${items.length - population.notGold} gold-first of ${population.goldFirst}) in ${parts} parts under ${values.out}`,
    );
    return;
  }
  if (command === "tally" && positionals[0]) {
    const dir = positionals[0];
    const keys = readLines<AuditKey>(path.join(dir, "key.jsonl"));
    const population = JSON.parse(fs.readFileSync(path.join(dir, "population.json"), "utf8")) as Population;
    const verdicts = new Map<number, Verdict>();
    for (const file of fs
      .readdirSync(dir)
      .filter((f) => /^verdicts.*\.jsonl$/.test(f))
      .sort())
      for (const v of readLines<{ n: number; verdict: Verdict }>(path.join(dir, file))) verdicts.set(v.n, v.verdict);
    const t = tallyAudit(keys, verdicts, population);
    const line = (name: string, c: typeof t.gold) => `  ${name}: ${c.judged} judged: answers ${c.answers}, partly ${c.partly}, no ${c.no}`;
    console.log(`${population.asks} asks, ${population.refused} refused, first reference a gold page in ${population.goldFirst}`);
    console.log(line("gold page first (sampled)", t.gold));
    console.log(line("another page first (all)", t.other));
    console.log(
      `  first reference a gold page: ${t.goldFirstShare.toFixed(3)}; its section answers the question (a reader's judgement): ${t.answers.toFixed(3)}; answers at least partly: ${t.atLeastPartly.toFixed(3)}`,
    );
    return;
  }
  console.error("usage: reader-audit.ts build --answers FILE --out DIR [--mode explicit] [--gold-first 60] [--parts 3] | tally DIR");
  process.exitCode = 2;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
