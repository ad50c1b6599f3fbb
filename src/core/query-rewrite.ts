import type { LanguageModel, ModelMessage, TokenUsage } from "./language-model.ts";
import { countPromptTokens } from "./prompt.ts";
import type { RetrievalResult, RetrievedChunk, Retriever } from "./retriever.ts";
import { settleUsage } from "./settle-usage.ts";
import { askSideQuestion, jsonObjectIn } from "./side-question.ts";
import type { SourceInfo } from "./source-catalog.ts";
import type { StructuredFormat } from "./structured-output.ts";

/** A question restated in the documentation's words by a language model. */
export interface QueryRewrite {
  /** The restatement and the likely command, function or option names, as one text to search. */
  query: string;
  usage: TokenUsage;
}

const INSTRUCTIONS =
  "You help search software documentation. Restate the user's question in the words the documentation itself would use, " +
  "and name the commands, functions, classes, options or settings that most likely answer it. " +
  'Reply with JSON only: {"query": "<the question restated>", "names": ["<name>", ...]}. Do not answer the question.';

const FORMAT: StructuredFormat = {
  kind: "json_schema",
  name: "query_rewrite",
  strict: true,
  schema: {
    type: "object",
    properties: { query: { type: "string" }, names: { type: "array", items: { type: "string" } } },
    required: ["query", "names"],
    additionalProperties: false,
  },
};

/**
 * Asks the model, once and within `timeoutMs`, to restate the question in
 * the documentation's terms. Null when it does not answer in time, fails or
 * says nothing usable: the caller then searches with the question alone.
 * Rejects only when the caller's own signal aborts.
 */
export async function askModelToRewrite(
  model: LanguageModel,
  question: string,
  {
    sources,
    timeoutMs,
    signal,
    countTokens,
  }: { sources: readonly SourceInfo[]; timeoutMs: number; signal?: AbortSignal; countTokens: (text: string) => number },
): Promise<QueryRewrite | null> {
  const docs = sources
    .slice(0, 10)
    .map((s) => `- ${s.name}${s.description ? `: ${s.description}` : ""}`)
    .join("\n");
  const prompt: ModelMessage[] = [
    { role: "system", content: INSTRUCTIONS },
    { role: "user", content: `Documentation:\n${docs}\n\nQuestion: ${question}` },
  ];
  const result = await askSideQuestion(model, prompt, { format: FORMAT, maxOutputTokens: 150, timeoutMs, signal });
  if (!result) return null;
  const query = rewrittenText(result.text);
  if (!query) return null;
  return { query, usage: settleUsage(result.usage, { prompt: () => countPromptTokens(prompt, countTokens), completion: () => countTokens(result.text) }) };
}

/** The restatement and names of a reply (JSON as asked; plain text taken as the restatement). */
function rewrittenText(text: string): string {
  const reply = jsonObjectIn(text) as { query?: unknown; names?: unknown } | undefined;
  if (reply === undefined || reply === null || typeof reply !== "object")
    return text.trim().startsWith("{") ? "" : text.replace(/\s+/g, " ").trim().slice(0, 500);
  const { query, names } = reply;
  const parts = [typeof query === "string" ? query : "", ...(Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : [])];
  return parts.join(" ").replace(/\s+/g, " ").trim().slice(0, 500);
}

/**
 * A retriever that searches with the question and with its restatement and
 * merges what both find. The question's terms stay the measure (coverage,
 * names, titles); a passage the restatement found counts as covering the
 * question as far as it covers the restatement. Each list's scores are taken
 * relative to its best, as pages are ranked.
 */
export function withRestatement(retrieve: Retriever, restatement: string): Retriever {
  return async (options) => {
    const [asked, restated] = await Promise.all([retrieve(options), retrieve({ ...options, query: restatement })]);
    return mergeResults(asked, restated, options.limit);
  };
}

function mergeResults(asked: RetrievalResult, restated: RetrievalResult, limit: number): RetrievalResult {
  const weight = new Map(restated.terms.map((t) => [t.term, t.weight]));
  const total = restated.terms.reduce((sum, t) => sum + t.weight, 0) || 1;
  const top = (chunks: RetrievedChunk[]) => Math.max(0, ...chunks.map((c) => c.score)) || 1;
  const topAsked = top(asked.chunks);
  const topRestated = top(restated.chunks);
  const identity = (c: RetrievedChunk) => c.key ?? `${c.url}#${c.anchor}\n${c.text}`;
  const merged = new Map<string, RetrievedChunk>();
  for (const c of asked.chunks) merged.set(identity(c), { ...c, score: c.score / topAsked });
  for (const c of restated.chunks) {
    const coverage = c.matched.reduce((sum, t) => sum + (weight.get(t) ?? 0), 0) / total;
    const score = c.score / topRestated;
    const known = merged.get(identity(c));
    if (known) {
      merged.set(identity(c), { ...known, score: Math.max(known.score, score), coverage: Math.max(known.coverage ?? 0, coverage) });
      continue;
    }
    // In the question's terms, as the retriever reads text.
    const holds = (text: string) => asked.matches?.(text) ?? [];
    merged.set(identity(c), {
      ...c,
      score,
      coverage,
      matched: holds(`${c.title}\n${c.section}\n${c.text}`),
      titleMatched: holds(c.title),
      headingMatched: holds(c.section),
    });
  }
  const chunks = [...merged.values()].sort((a, b) => b.score - a.score).slice(0, limit);
  return { chunks, terms: asked.terms, matches: asked.matches };
}
