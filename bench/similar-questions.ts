import fs from "node:fs";
import path from "node:path";
import { DEFAULT_SIMILARITY, jaccard, questionTerms } from "../src/core/similar-questions.ts";
import { englishAnalyzer } from "../src/text/english-analyzer.ts";
import { sharedEvalFile } from "./eval/shared-file.ts";

/**
 * npm run -s bench -- similar-questions
 * Every pair of the eval sets' questions by the gap report's similarity
 * (core/similar-questions.ts): the closest pairs to judge by hand, and how
 * many pairs each threshold would merge. The later sets reword some earlier
 * questions, so the top of the list holds real rewordings.
 */
const root = path.resolve(import.meta.dirname, "..");
const files = [sharedEvalFile("dev.jsonl"), path.join(root, "bench/check-questions.jsonl"), path.join(root, "bench/check2-questions.jsonl")];
const questions = files.flatMap((f) =>
  fs
    .readFileSync(f, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l).question as string),
);
const pairs: Array<[number, string, string]> = [];
for (let i = 0; i < questions.length; i++) {
  for (let j = i + 1; j < questions.length; j++)
    pairs.push([jaccard(questionTerms(englishAnalyzer, questions[i]!), questionTerms(englishAnalyzer, questions[j]!)), questions[i]!, questions[j]!]);
}
pairs.sort((a, b) => b[0] - a[0]);
console.log(`${questions.length} questions, ${pairs.length} pairs; threshold in use ${DEFAULT_SIMILARITY}`);
for (const [score, a, b] of pairs.filter((p) => p[0] >= 0.3)) console.log(`${score.toFixed(3)}  ${a}  |  ${b}`);
for (const t of [0.3, 0.4, 0.5, 0.6, 0.7]) console.log(`pairs at >= ${t}: ${pairs.filter((p) => p[0] >= t).length}`);
