import type { OpenedCompletion } from "./chat-part.ts";
import type { ChatCompletionRequest } from "./chat-request.ts";
import { lastUserText, retrievalQuery } from "./conversation-query.ts";
import { badRequest, notFound, toDocentError } from "./errors.ts";
import type { LanguageModel, ModelStreamPart } from "./language-model.ts";
import type { ModelRegistry } from "./model-registry.ts";
import { buildPrompt, countPromptTokens } from "./prompt.ts";
import { withLinkedPages } from "./linked-pages.ts";
import { rankPages, type RankedPage } from "./rank-pages.ts";
import { groundPages } from "./references.ts";
import { fixedReply, relay, withExtraUsage } from "./reply-stream.ts";
import type { Retriever } from "./retriever.ts";
import { selectSources, type Selection } from "./select-sources.ts";
import { withoutSourceNames, type IsWord } from "./source-names.ts";
import { askModelForSources, type SourceCandidate } from "./model-source-choice.ts";
import type { SourceCatalog, SourceInfo } from "./source-catalog.ts";
import { structuredFormat, type SchemaValidator, type StructuredFormat } from "./structured-output.ts";
import { structuredReply } from "./structured-reply.ts";
import { inScope, type SourceScope } from "./source-scope.ts";
import { COVERAGE_BARS, coversQuestion } from "./coverage-judge.ts";
import { preferReferencePages } from "./page-kinds.ts";
import { askModelToRewrite, withRestatement } from "./query-rewrite.ts";
import { smallTalk, smallTalkReply, withoutPleasantries, type SmallTalk } from "./small-talk.ts";

export type { ChatPart, OpenedCompletion } from "./chat-part.ts";

export interface ChatEngineDeps {
  catalog: SourceCatalog;
  retrieve: Retriever;
  models: ModelRegistry;
  countTokens: (text: string) => number;
  schemaValidator: SchemaValidator;
  maxReferences: number;
  /** How many chunks to retrieve before collapsing to pages. */
  retrievalLimit?: number;
  /** Overrides both coverage bars (see COVERAGE_BARS in coverage-judge.ts): below it the sources are taken not to cover a question… */
  minCoverage?: number;
  /** …unless the best page was found by meaning at least this similar (cosine; its scale depends on the embedding model). */
  minSimilarity?: number;
  /** How long the agent may ask a provider model to choose among contending sources (0: never asks). */
  sourceChoiceTimeoutMs?: number;
  /** Whether a word is a dictionary word: lets "postgres" or "pyhton" name its source. */
  isWord?: IsWord;
  /** `rewrite`: a provider model answering first restates the question in the docs' terms, within `timeoutMs`, and both are searched. */
  retrievalAssist?: { mode: "off" | "rewrite"; timeoutMs: number };
}

/** The bar a page found by meaning clears instead (not calibrated here: no embeddings service can be reached). */
export const DEFAULT_MIN_SIMILARITY = 0.45;

export const NO_COVERAGE_REPLY = "The knowledge sources available to me do not cover this question, so I cannot answer it from the documentation.";

export function createChatEngine(deps: ChatEngineDeps) {
  const limit = deps.retrievalLimit ?? 30;
  const minSimilarity = deps.minSimilarity ?? DEFAULT_MIN_SIMILARITY;

  /** The sources a request names, each checked against the catalog. */
  function namedSources(ids: readonly string[], catalog: SourceInfo[]): SourceInfo[] {
    if (ids.length === 0) throw badRequest("'sources' must list at least one knowledge-source id, or be null to let the agent choose.", "sources");
    const byId = new Map(catalog.map((s) => [s.id.toLowerCase(), s]));
    const sources: SourceInfo[] = [];
    ids.forEach((raw, i) => {
      const source = byId.get(raw.toLowerCase());
      if (!source) throw notFound(`No knowledge source with id '${raw}'. GET /v1/sources lists the available ones.`, `sources[${i}]`, "source_not_found");
      if (!sources.includes(source)) sources.push(source);
    });
    return sources;
  }

  async function explicitChunks(ids: readonly string[], query: string, catalog: SourceInfo[], signal: AbortSignal | undefined, retrieve: Retriever) {
    const sources = namedSources(ids, catalog);
    const result = await retrieve({ query: withoutSourceNames(query, sources, deps.isWord), sourceIds: sources.map((s) => s.id), limit, signal });
    return { sources, named: true, pages: rankPages(result), matches: result.matches };
  }

  /**
   * Validates the request, chooses sources, retrieves, and starts the model.
   * Everything that can be refused is refused here, before any output exists.
   * `scope` is the caller's key's sources: others are treated as if they did not exist.
   */
  async function open(request: ChatCompletionRequest, { signal, scope = null }: { signal?: AbortSignal; scope?: SourceScope } = {}): Promise<OpenedCompletion> {
    const format = structuredFormat(request.response_format);
    if (format) {
      const problem = deps.schemaValidator.checkSchema(format.schema);
      if (problem) throw badRequest(`response_format.json_schema.schema is not a valid JSON Schema: ${problem}`, "response_format", "invalid_schema");
      if (request.include_references) {
        throw badRequest("include_references cannot be combined with a JSON response_format: appended references would break the JSON. The references are in url_references.", "include_references");
      }
    }
    // With structured output the agent switches to its structured-output model.
    const model = deps.models.resolve(request.model, { structured: format !== null });
    if (format && !model.supportsStructuredOutput) {
      throw badRequest(`The model '${request.model}' (${model.provider}/${model.modelId}) cannot produce structured output.`, "response_format", "structured_output_unavailable");
    }
    const query = withoutPleasantries(retrievalQuery(request.messages));
    if (!lastUserText(request.messages).trim()) throw badRequest("'messages' must contain a user message with text.", "messages");
    const catalog = inScope(await deps.catalog.list(), scope);
    // Greetings, thanks and "what can you do?" get a friendly word on every model path, with no references.
    const talk = format ? null : smallTalk(lastUserText(request.messages));
    if (talk) return smallTalkCompletion(request, model, talk, catalog);
    // A model that can answer in JSON may settle which of several contending sources the question is about.
    const budget = deps.sourceChoiceTimeoutMs ?? 0;
    const choose =
      model.supportsStructuredOutput && budget > 0
        ? (candidates: SourceCandidate[]) => askModelForSources(model, query, candidates, { timeoutMs: budget, signal, countTokens: deps.countTokens })
        : undefined;
    // A provider model may first restate the question in the docs' terms (RETRIEVAL_ASSIST=rewrite); both are searched.
    const rewrite = await restate(model, query, request.sources ? namedSources(request.sources, catalog) : catalog, signal);
    const retrieve = rewrite ? withRestatement(deps.retrieve, rewrite.query) : deps.retrieve;
    const picked: Selection = request.sources
      ? await explicitChunks(request.sources, query, catalog, signal, retrieve)
      : await selectSources(query, catalog, retrieve, { limit, choose, isWord: deps.isWord, wholeIndex: scope === null, signal });
    // With one source only, the question can only be about it: judged as if named.
    const opened = await answer(request, model, format, query, catalog.length === 1 ? { ...picked, named: true } : picked, signal);
    let parts = opened.parts;
    for (const usage of [picked.choice?.usage, rewrite?.usage]) if (usage) parts = withExtraUsage(parts, usage);
    return { ...opened, parts };
  }

  function restate(model: LanguageModel, query: string, sources: readonly SourceInfo[], signal: AbortSignal | undefined) {
    const assist = deps.retrievalAssist;
    if (assist?.mode !== "rewrite" || model.provider === "extractive") return null;
    return askModelToRewrite(model, query, { sources, timeoutMs: assist.timeoutMs, signal, countTokens: deps.countTokens });
  }

  async function answer(
    request: ChatCompletionRequest,
    model: LanguageModel,
    format: StructuredFormat | null,
    query: string,
    picked: Selection,
    signal: AbortSignal | undefined,
  ): Promise<OpenedCompletion> {
    // No made-up grounding: when the candidate pages cover too little of the question, there are no references.
    const ranked = withLinkedPages(preferReferencePages(picked.pages, query), picked.matches);
    const covered = coversQuestion({
      query,
      pages: ranked.slice(0, deps.maxReferences),
      named: picked.named === true,
      sources: picked.sources,
      matches: picked.matches,
      isWord: deps.isWord,
      minSimilarity,
      bars: deps.minCoverage === undefined ? COVERAGE_BARS : { open: deps.minCoverage, named: Math.min(deps.minCoverage, COVERAGE_BARS.named) },
    });
    const relevant = covered ? ranked : [];
    const { references, documents } = groundPages(relevant, { maxReferences: deps.maxReferences });
    const base = { model: request.model, provider: model.provider, modelId: model.modelId, sources: picked.sources, references };
    // A JSON reply is still asked of the model: it can say in JSON that the sources do not cover it.
    if (references.length === 0 && !format) return { ...base, parts: fixedReply(NO_COVERAGE_REPLY, deps.countTokens(query), deps.countTokens(NO_COVERAGE_REPLY)) };

    const prompt = buildPrompt(request.messages, documents, format);
    const call = {
      prompt,
      documents,
      temperature: request.temperature ?? undefined,
      topP: request.top_p ?? undefined,
      maxOutputTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
      stopSequences: typeof request.stop === "string" ? [request.stop] : request.stop ?? undefined,
      seed: request.seed ?? undefined,
      user: request.user ?? undefined,
      responseFormat: format ?? undefined,
      abortSignal: signal,
    };
    let stream: AsyncIterable<ModelStreamPart>;
    try {
      ({ stream } = await model.doStream(call));
    } catch (error) {
      throw toDocentError(error);
    }
    if (format) return { ...base, parts: structuredReply(stream, { model, call, format, validator: deps.schemaValidator, countTokens: deps.countTokens }) };
    return { ...base, parts: relay(stream, model, () => countPromptTokens(prompt, deps.countTokens), deps.countTokens, references, request.include_references === true) };
  }

  function smallTalkCompletion(request: ChatCompletionRequest, model: LanguageModel, talk: SmallTalk, catalog: SourceInfo[]): OpenedCompletion {
    const text = smallTalkReply(talk, request.sources ? namedSources(request.sources, catalog) : catalog);
    return { model: request.model, provider: model.provider, modelId: model.modelId, sources: [], references: [], parts: fixedReply(text, deps.countTokens(lastUserText(request.messages)), deps.countTokens(text)) };
  }

  return { open };
}
