import fs from "node:fs";
import path from "node:path";
import { retrievalQuery } from "../src/core/conversation-query.ts";
import type { SourceInfo } from "../src/core/source-catalog.ts";
import { mentionedSources } from "../src/core/source-names.ts";
import { contentTerms } from "../src/core/text-analyzer.ts";
import { isEnglishWord } from "../src/retrieval/english-words.ts";
import { englishAnalyzer } from "../src/text/english-analyzer.ts";
import { sharedEvalFile } from "./eval/shared-file.ts";

/**
 * When a question borrows the previous one for retrieval (src/core/conversation-query.ts), against the rule before
 * 2026-11-28 (any it/its/this/that/them/those/these). Turns written blind (by helpers that read no code) over the
 * eval sources, follow-ups that need the previous question's subject and standalone questions, many with pronouns of
 * their own: `bench/follow-up-turns.json` (120), `bench/follow-up-turns-2.json` (100, written for fragments and
 * ellipses), `bench/follow-up-turns-3.json` (100, written for reports back on an answer). `npm run bench -- follow-ups`.
 */
type Turn = { previous: string; question: string; kind: "follow-up" | "standalone" };
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(import.meta.dirname, file), "utf8")) as Turn[];
const catalog: SourceInfo[] = (JSON.parse(fs.readFileSync(sharedEvalFile("sources.json"), "utf8")) as Array<{ name: string }>).map((s, i) => ({
  id: String(i),
  name: s.name,
  description: "",
  baseUrl: "",
  origin: "",
  pages: 0,
  chunks: 0,
  createdAt: new Date(0),
  updatedAt: new Date(0),
}));
const sourcesNamed = (text: string) => mentionedSources(text, catalog, { analyzer: englishAnalyzer, isWord: isEnglishWord }).map((s) => s.id);
const before = (question: string) =>
  contentTerms(englishAnalyzer, question, 3).length <= 2 ||
  /^(and|what about|how about|also|then)\b/i.test(question) ||
  /\b(it|its|this|that|them|those|these)\b/i.test(question);
const now = ({ previous, question }: Turn) =>
  retrievalQuery(
    [
      { role: "user", content: previous },
      { role: "assistant", content: "…" },
      { role: "user", content: question },
    ],
    englishAnalyzer,
    { sourcesNamed },
  ) !== question;

for (const file of ["follow-up-turns.json", "follow-up-turns-2.json", "follow-up-turns-3.json"]) {
  const turns = read(file);
  console.log(`bench/${file}:`);
  for (const [kind, wrong] of [
    ["follow-up", "searched alone"],
    ["standalone", "searched with the previous question"],
  ] as const) {
    const of = turns.filter((t) => t.kind === kind);
    const wrongNow = of.filter((t) => now(t) !== (kind === "follow-up"));
    const wrongBefore = of.filter((t) => before(t.question) !== (kind === "follow-up"));
    console.log(`  ${kind}s ${wrong}: ${wrongNow.length} of ${of.length} (the rule before: ${wrongBefore.length})`);
    for (const t of wrongNow) console.log(`    ${t.question}`);
  }
}
