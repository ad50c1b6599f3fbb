import type { LanguageModel, ModelMessage, TokenUsage } from "./language-model.ts";
import { countPromptTokens } from "./prompt.ts";
import type { RankedPage } from "./rank-pages.ts";
import { settleUsage } from "./settle-usage.ts";
import { askSideQuestion, jsonObjectIn } from "./side-question.ts";
import type { SourceInfo } from "./source-catalog.ts";
import type { StructuredFormat } from "./structured-output.ts";

/** A source the retrieval found evidence in, with its best pages. */
export interface SourceCandidate {
  source: SourceInfo;
  pages: RankedPage[];
}

export interface ModelSourceChoice {
  /** The chosen sources' ids, best first; empty when the reply named no valid candidate. */
  ids: string[];
  /** What the call cost, as the provider reported it (or counted). */
  usage: TokenUsage;
}

const INSTRUCTIONS =
  "You route a question about software to the documentation that answers it. " +
  "Given the question and numbered knowledge sources (name, description, best-matching pages), " +
  'reply with JSON only: {"sources": [numbers]} listing the fewest sources whose documentation answers the question, ' +
  "best first. A question about one product belongs to that product's documentation only, even when another documents a similar feature.";

const FORMAT: StructuredFormat = {
  kind: "json_schema",
  name: "source_choice",
  strict: true,
  schema: { type: "object", properties: { sources: { type: "array", items: { type: "integer" } } }, required: ["sources"], additionalProperties: false },
};

/**
 * Asks a language model which candidate sources answer the question, within
 * `timeoutMs`. Null when it does not answer in time or fails; an answer with
 * no valid choice has no ids. Either way the caller keeps the retrieval's own
 * choice. Rejects only when the caller's own signal aborts.
 */
export async function askModelForSources(
  model: LanguageModel,
  query: string,
  candidates: readonly SourceCandidate[],
  { timeoutMs, signal, countTokens }: { timeoutMs: number; signal?: AbortSignal; countTokens: (text: string) => number },
): Promise<ModelSourceChoice | null> {
  const listing = candidates
    .map(({ source, pages }, i) => {
      const about = source.description ? ` — ${source.description}` : "";
      return `${i + 1}. ${source.name}${about}\n   best-matching pages: ${pages
        .slice(0, 3)
        .map((p) => p.title)
        .join("; ")}`;
    })
    .join("\n");
  const prompt: ModelMessage[] = [
    { role: "system", content: INSTRUCTIONS },
    { role: "user", content: `Question: ${query}\n\nKnowledge sources:\n${listing}` },
  ];
  const result = await askSideQuestion(model, prompt, { format: FORMAT, maxOutputTokens: 50, timeoutMs, signal });
  if (!result) return null;
  const numbers = chosenNumbers(result.text);
  const ids = [...new Set(numbers.filter((n) => n >= 1 && n <= candidates.length).map((n) => candidates[n - 1]!.source.id))];
  const usage = settleUsage(result.usage, { prompt: () => countPromptTokens(prompt, countTokens, 1), completion: () => countTokens(result.text) });
  return { ids, usage };
}

function chosenNumbers(text: string): number[] {
  const sources = (jsonObjectIn(text) as { sources?: unknown } | undefined)?.sources;
  return Array.isArray(sources) ? sources.filter((n): n is number => Number.isInteger(n)) : [];
}
