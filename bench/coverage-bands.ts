import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { startServer } from "../src/server.ts";
import { documentationDir, type EvalSource } from "./debian-docs.ts";
import { sharedEvalFile } from "./eval/shared-file.ts";

/**
 * npm run -s bench -- coverage-bands [--cache DIR] [--data-dir DIR]
 * How often an answer holds the right page, by the share of the question its
 * best passage covers: where the docs-gap report's "weakly grounded" line
 * (core/gap-report.ts DEFAULT_WEAK_COVERAGE) should sit. Asks the eval sets'
 * questions through HTTP in explicit and agent mode and reads the coverage
 * the served-completions record kept for each answer.
 */
const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  allowPositionals: true,
  options: {
    questions: {
      type: "string",
      multiple: true,
      default: [sharedEvalFile("dev.jsonl"), path.join(root, "bench/check-questions.jsonl"), path.join(root, "bench/check2-questions.jsonl")],
    },
    sources: { type: "string", default: sharedEvalFile("sources.json") },
    cache: { type: "string", default: path.join(root, ".eval-cache") },
    "data-dir": { type: "string" },
  },
});
interface Question {
  id: string;
  source: string | null;
  question: string;
  gold: string[];
}
const sources: EvalSource[] = JSON.parse(fs.readFileSync(values.sources!, "utf8"));
const questions: Question[] = values.questions!.flatMap((f) =>
  fs
    .readFileSync(f, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l)),
);
const normalise = (url: string) =>
  url
    .replace(/#.*$/, "")
    .replace(/\/+$/, "")
    .replace(/\.html?$/, "");

const dataDir = values["data-dir"] ? path.resolve(values["data-dir"]) : fs.mkdtempSync(path.join(os.tmpdir(), "docent-bands-"));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(OPENAI|ANTHROPIC|EMBEDDINGS)_/.test(k)));
const server = await startServer(
  loadConfig({ ...env, DATA_DIR: dataDir, PORT: "0", DOCENT_DEMO: "0", AGENT_MODEL: "extractive", RATE_LIMIT_PER_MINUTE: "0" }),
  { log: () => {} },
);
const key = (await server.services.keys.create("bands")).key;
const ids = new Map<string, string>();
for (const source of sources) {
  const existing = await server.services.catalog.findByName(source.name);
  if (existing) {
    ids.set(source.slug, existing.id);
    continue;
  }
  const dir = documentationDir(source, values.cache!);
  ids.set(
    source.slug,
    (
      await ingestDocuments(server.services, {
        name: source.name,
        baseUrl: source.base_url,
        description: source.description,
        origin: dir,
        documents: listDocuments(dir),
      })
    ).source.id,
  );
}

type Answer = { mode: string; coverage: number | null; refused: boolean; hit: boolean; onTopic: boolean; question: string };
const answers: Answer[] = [];
for (const q of questions) {
  const source = q.source ? sources.find((s) => s.slug === q.source)! : null;
  const gold = new Set(source ? q.gold.map((g) => normalise(new URL(g, source.base_url).toString())) : []);
  for (const mode of source ? ["explicit", "agent"] : ["agent"]) {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "agent",
        messages: [{ role: "user", content: q.question }],
        ...(mode === "explicit" && { sources: [ids.get(q.source!)] }),
      }),
    });
    const body = (await response.json()) as { id: string; url_references: string[] };
    await server.services.usage.ledger.flush();
    const record = (await server.services.usage.served.list({ since: new Date(0) })).find((c) => c.id === body.id)!;
    answers.push({
      mode,
      coverage: record.coverage,
      refused: record.refused,
      hit: body.url_references.some((r) => gold.has(normalise(r))),
      onTopic: !!source,
      question: q.question,
    });
  }
}
await server.close();
if (!values["data-dir"]) fs.rmSync(dataDir, { recursive: true, force: true });

const bands = [0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9, 1.01];
console.log(
  `${answers.length} answers to ${questions.length} questions (explicit + agent); refused: ${answers.filter((a) => a.refused).length} (on-topic ${answers.filter((a) => a.refused && a.onTopic).length})`,
);
console.log("best-passage coverage   answers   right page in references");
let low = 0.0;
for (const high of bands) {
  const inBand = answers.filter((a) => !a.refused && a.onTopic && a.coverage !== null && a.coverage >= low && a.coverage < high);
  const hits = inBand.filter((a) => a.hit).length;
  console.log(
    `[${low.toFixed(2)}, ${high > 1 ? "1.00]" : `${high.toFixed(2)})`}          ${String(inBand.length).padStart(4)}      ${inBand.length ? `${hits}/${inBand.length} = ${(hits / inBand.length).toFixed(2)}` : "-"}`,
  );
  low = high;
}
const missed = answers.filter((a) => !a.refused && a.onTopic && !a.hit).sort((a, b) => (a.coverage ?? 0) - (b.coverage ?? 0));
console.log(`\nanswered without the right page (${missed.length}):`);
for (const a of missed) console.log(`  ${a.coverage?.toFixed(2)} ${a.mode.padEnd(8)} ${a.question}`);
