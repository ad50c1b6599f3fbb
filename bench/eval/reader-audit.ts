import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { documentationDir, type EvalSource } from "../debian-docs.ts";
import { referencedSection } from "../source-sections.ts";
import { type AskedQuestion, type AuditKey, answerSample, auditSample, type Population, tallyAudit, type Verdict, wilson } from "./audit-sample.ts";
import { sharedEvalFile } from "./shared-file.ts";

// The reader's audit's command line: builds what readers see and counts their verdicts (see audit-sample.ts).

function sectionText(reference: string, sources: readonly EvalSource[], cache: string): string {
  const text = referencedSection(reference, sources, (source) => documentationDir(source, cache)).text ?? "";
  const tidy = text.replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n");
  return tidy.length > 3000 ? `${tidy.slice(0, 3000)} …[section continues]` : tidy;
}

const readLines = <T>(file: string): T[] =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

function build(values: Record<string, string | undefined>) {
  const sources: EvalSource[] = JSON.parse(fs.readFileSync(values.sources!, "utf8"));
  const asks = readLines<AskedQuestion>(values.answers!).filter((a) => a.mode === values.mode);
  const seed = Number(values.seed);
  const ofAnswers = values.of === "answer";
  const { items, population } = ofAnswers
    ? answerSample(asks, { size: Number(values.sample), seed })
    : auditSample(asks, { goldFirst: Number(values["gold-first"]), seed });
  // What a reader sees: the question and the section (or the answer), never the gold pages nor which kind an item is.
  const seen = ({ n, ask }: (typeof items)[number]) =>
    ofAnswers
      ? { n, question: ask.question, answer: ask.answer ?? "", references: ask.refs }
      : { n, question: ask.question, reference: ask.refs[0]!, section: sectionText(ask.refs[0]!, sources, values.cache!) };
  fs.mkdirSync(values.out!, { recursive: true });
  const parts = Math.max(1, Number(values.parts));
  for (let p = 0; p < parts; p++) {
    const mine = items.filter((_, i) => i % parts === p).map(seen);
    fs.writeFileSync(path.join(values.out!, `items-${p + 1}.jsonl`), `${mine.map((x) => JSON.stringify(x)).join("\n")}\n`);
  }
  const keys: AuditKey[] = items.map(({ n, ask }) => ({ n, set: ask.set, id: ask.id, reference: ask.refs[0] ?? "", goldFirst: ask.goldFirst }));
  fs.writeFileSync(path.join(values.out!, "key.jsonl"), `${keys.map((k) => JSON.stringify(k)).join("\n")}\n`);
  fs.writeFileSync(path.join(values.out!, "population.json"), `${JSON.stringify(population)}\n`);
  console.log(`${items.length} items of ${asks.length} asks in ${parts} parts under ${values.out}`);
}

function tally(dir: string) {
  const keys = readLines<AuditKey>(path.join(dir, "key.jsonl"));
  const population = JSON.parse(fs.readFileSync(path.join(dir, "population.json"), "utf8")) as Population;
  const verdicts = new Map<number, Verdict>();
  const noise = new Map<string, number>();
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => /^verdicts.*\.jsonl$/.test(f))
    .sort())
    for (const v of readLines<{ n: number; verdict: Verdict; noise?: string }>(path.join(dir, file))) {
      verdicts.set(v.n, v.verdict);
      if (v.noise) noise.set(v.noise, (noise.get(v.noise) ?? 0) + 1);
    }
  const t = tallyAudit(keys, verdicts, population);
  const line = (name: string, c: typeof t.gold) => `  ${name}: ${c.judged} judged: answers ${c.answers}, partly ${c.partly}, no ${c.no}`;
  console.log(`${population.asks} asks, ${population.refused} refused, first reference a gold page in ${population.goldFirst}`);
  if (population.of === "answer") {
    const judged = t.gold.judged + t.other.judged;
    const share = (hits: number) =>
      `${(hits / Math.max(1, judged)).toFixed(3)} (95% ${wilson(hits, judged)
        .map((x) => x.toFixed(2))
        .join("–")})`;
    console.log(line("answers whose first reference is a gold page", t.gold));
    console.log(line("the others (refusals among them)", t.other));
    console.log(
      `  of ${judged} sampled answers: the answer answers the question ${share(t.gold.answers + t.other.answers)}; at least partly ${share(judged - t.gold.no - t.other.no)}`,
    );
    // How much of an answer is beside the point, as the readers saw it.
    if (noise.size > 0) console.log(`  beside the point: ${["little", "some", "much"].map((level) => `${level} ${noise.get(level) ?? 0}`).join(", ")}`);
    return;
  }
  console.log(line("gold page first (sampled)", t.gold));
  console.log(line("another page first (all)", t.other));
  console.log(
    `  first reference a gold page: ${t.goldFirstShare.toFixed(3)}; its section answers the question (a reader's judgement): ${t.answers.toFixed(3)}; answers at least partly: ${t.atLeastPartly.toFixed(3)}`,
  );
}

function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      answers: { type: "string" },
      out: { type: "string" },
      of: { type: "string", default: "first-reference" },
      mode: { type: "string", default: "explicit" },
      "gold-first": { type: "string", default: "60" },
      sample: { type: "string", default: "90" },
      parts: { type: "string", default: "3" },
      seed: { type: "string", default: "1" },
      sources: { type: "string", default: sharedEvalFile("sources.json") },
      cache: { type: "string", default: path.resolve(import.meta.dirname, "../../.eval-cache") },
    },
  });
  if (command === "build" && values.answers && values.out) return build(values as Record<string, string | undefined>);
  if (command === "tally" && positionals[0]) return tally(positionals[0]);
  console.error(
    "usage: reader-audit.ts build --answers FILE --out DIR [--of first-reference|answer] [--mode explicit] [--gold-first 60] [--sample 90] [--parts 3] | tally DIR",
  );
  process.exitCode = 2;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
