import type { ChatPart, OpenedCompletion } from "./chat-part.ts";
import type { ChatCompletionRequest } from "./chat-request.ts";
import { lastUserText, retrievalQuery } from "./conversation-query.ts";
import { bestCoverage, COVERAGE_BARS, coversQuestion, type EverydayShare } from "./coverage-judge.ts";
import { badRequest, notFound, toDocentError } from "./errors.ts";
import { checkInputLimits, DEFAULT_INPUT_LIMITS, type InputLimits } from "./input-limits.ts";
import type { LanguageModel, StreamResult } from "./language-model.ts";
import { withLinkedPages } from "./linked-pages.ts";
import type { ModelRegistry } from "./model-registry.ts";
import { askModelForSources, type SourceCandidate } from "./model-source-choice.ts";
import { preferReferencePages } from "./page-kinds.ts";
import { type Passage, passagesOf } from "./passages.ts";
import { buildPrompt, countPromptTokens, countTextTokens } from "./prompt.ts";
import { askModelToRewrite, withRestatement } from "./query-rewrite.ts";
import { type RankedPage, rankPages, referenceUrl } from "./rank-pages.ts";
import { groundPages } from "./references.ts";
import { fixedReply, relay, withExtraUsage } from "./reply-stream.ts";
import type { Retriever } from "./retriever.ts";
import { type Selection, selectSources } from "./select-sources.ts";
import { setAsideTerms } from "./set-aside-phrases.ts";
import { type SmallTalk, smallTalk, smallTalkReply, whatDocentAnswers, withoutPleasantries } from "./small-talk.ts";
import type { SourceCatalog, SourceInfo } from "./source-catalog.ts";
import { type IsWord, mentionedSources, withoutSourceNames } from "./source-names.ts";
import { inScope, type SourceScope } from "./source-scope.ts";
import { type SchemaValidator, type StructuredFormat, structuredFormat } from "./structured-output.ts";
import { structuredReply } from "./structured-reply.ts";
import type { TextAnalyzer } from "./text-analyzer.ts";

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
  /** Whether a lower-case word is software jargon (see unknownNames in coverage-judge.ts). */
  isSoftwareTerm?: IsWord;
  /** How common a term is in everyday spoken English (see documentationWords in coverage-judge.ts). */
  everyday?: EverydayShare;
  /** How much a request may hold (messages, characters); refused before any work. */
  inputLimits?: InputLimits;
  /** How questions are read (the same analyzer the index and the offline generator use). */
  analyzer: TextAnalyzer;
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

  type SelectOptions = { signal?: AbortSignal; choose?: Parameters<typeof selectSources>[3]["choose"]; retrieve?: Retriever };

  /** The given sources (each in the caller's scope), or the agent's choice among `catalog` (those in scope); their pages ranked. */
  async function select(
    query: string,
    ids: readonly string[] | null | undefined,
    catalog: SourceInfo[],
    wholeIndex: boolean,
    { signal, choose, retrieve: searchAll = deps.retrieve }: SelectOptions,
  ): Promise<Selection> {
    // A scoped caller's catalog is its key's sources: the words of the others must weigh nothing in its searches.
    const visible = wholeIndex ? undefined : catalog.map((s) => s.id);
    const retrieve: Retriever = visible ? (options) => searchAll({ ...options, visible }) : searchAll;
    let picked: Selection;
    if (ids) {
      const sources = namedSources(ids, catalog);
      const searched = withoutSourceNames(query, sources, deps);
      const result = await retrieve({ query: searched, sourceIds: sources.map((s) => s.id), limit, signal });
      picked = {
        sources,
        named: true,
        pages: rankPages(result, { aside: setAsideTerms(searched, result.matches) }),
        matches: result.matches,
        terms: result.terms,
      };
    } else {
      picked = await selectSources(query, catalog, retrieve, { limit, choose, analyzer: deps.analyzer, isWord: deps.isWord, wholeIndex, signal });
    }
    // With one source only, the question can only be about it: judged as if named, except that a
    // product the question names and the source's pages never mention still says it is about another.
    return catalog.length === 1 && !picked.named ? { ...picked, named: true, soleSource: true } : picked;
  }

  /**
   * No made-up grounding: when the candidate pages cover too little of the
   * question, no page grounds it. Also the candidates judged, so what
   * observers record (coverage, closest pages) is what the decision read.
   */
  function groundingPages(picked: Selection, query: string): { pages: RankedPage[]; candidates: RankedPage[] } {
    const ranked = withLinkedPages(preferReferencePages(picked.pages, query), picked.matches);
    const candidates = ranked.slice(0, deps.maxReferences);
    const covered = coversQuestion({
      query,
      pages: candidates,
      named: picked.named === true,
      soleSource: picked.soleSource === true,
      sources: picked.sources,
      matches: picked.matches,
      isWord: deps.isWord,
      isSoftwareTerm: deps.isSoftwareTerm,
      analyzer: deps.analyzer,
      minSimilarity,
      terms: picked.terms,
      everyday: deps.everyday,
      bars: deps.minCoverage === undefined ? COVERAGE_BARS : { open: deps.minCoverage, named: Math.min(deps.minCoverage, COVERAGE_BARS.named) },
    });
    return { pages: covered ? ranked : [], candidates };
  }

  /**
   * The passages an answer would be grounded in, best first, without a model
   * (for search tools): the same sources and pages as `open`, none when the
   * sources do not cover the question.
   */
  async function search(
    query: string,
    { sources, limit: max, signal, scope = null }: { sources?: readonly string[] | null; limit: number; signal?: AbortSignal; scope?: SourceScope },
  ): Promise<{ sources: SourceInfo[]; passages: Passage[] }> {
    if (!query.trim()) throw badRequest("'query' must contain text.", "query");
    const catalog = inScope(await deps.catalog.list(), scope);
    const picked = await select(query, sources, catalog, scope === null, { signal });
    return { sources: picked.sources, passages: passagesOf(groundingPages(picked, query).pages, { limit: max }) };
  }

  /**
   * Validates the request, chooses sources, retrieves, and starts the model.
   * Everything that can be refused is refused here, before any output exists.
   * `scope` is the caller's key's sources: others are treated as if they did not exist.
   */
  async function open(
    request: ChatCompletionRequest,
    { signal, scope = null, caller = null }: { signal?: AbortSignal; scope?: SourceScope; caller?: string | null } = {},
  ): Promise<OpenedCompletion> {
    checkInputLimits(request, deps.inputLimits ?? DEFAULT_INPUT_LIMITS);
    const format = structuredFormat(request.response_format);
    if (format) {
      const problem = await deps.schemaValidator.checkSchema(format.schema, { caller, signal });
      if (problem) throw badRequest(`response_format.json_schema.schema is not a valid JSON Schema: ${problem}`, "response_format", "invalid_schema");
      if (request.include_references) {
        throw badRequest(
          "include_references cannot be combined with a JSON response_format: appended references would break the JSON. The references are in url_references.",
          "include_references",
        );
      }
    }
    // With structured output the agent switches to its structured-output model.
    const model = deps.models.resolve(request.model, { structured: format !== null });
    if (format && !model.supportsStructuredOutput) {
      throw badRequest(
        `The model '${request.model}' (${model.provider}/${model.modelId}) cannot produce structured output.`,
        "response_format",
        "structured_output_unavailable",
      );
    }
    if (!lastUserText(request.messages).trim()) throw badRequest("'messages' must contain a user message with text.", "messages");
    const catalog = inScope(await deps.catalog.list(), scope);
    // A question that names a source its previous one did not is not searched with it (see retrievalQuery).
    const sourcesNamed = (text: string) => mentionedSources(text, catalog, { analyzer: deps.analyzer, isWord: deps.isWord }).map((s) => s.id);
    const query = withoutPleasantries(retrievalQuery(request.messages, deps.analyzer, { sourcesNamed }));
    // Greetings, thanks and "what can you do?" get a friendly word on every model path, with no references.
    const talk = format ? null : smallTalk(lastUserText(request.messages), deps.isWord);
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
    // Retrieval time: after the restatement (a provider call of its own), including a model's source choice when one is asked.
    const retrievalStart = Date.now();
    const picked = await select(query, request.sources, catalog, scope === null, { signal, choose, retrieve });
    const answerable = request.sources ? namedSources(request.sources, catalog) : catalog;
    const opened = await answer(request, model, format, query, picked, answerable, signal, Date.now() - retrievalStart, caller);
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
    /** The sources the caller may ask about, named in a refusal. */
    answerable: readonly SourceInfo[],
    signal: AbortSignal | undefined,
    retrievalMs: number,
    caller: string | null,
  ): Promise<OpenedCompletion> {
    const { pages, candidates } = groundingPages(picked, query);
    const grounded = groundPages(pages, { maxReferences: deps.maxReferences });
    const { documents } = grounded;
    // A JSON reply is not renumbered: its `[n]` are the context's numbers, so it refers to every section given, in that order.
    // A text reply refers to the sections it cites, none before its first marker (relay says which as they come):
    // a stream's early chunks never list a page its answer ends up not drawing on.
    const given = format ? grounded.references : grounded.pages;
    const references = format ? given : [];
    // For outcome observers (usage, the docs-gap report): also the pages that came closest when none was good enough.
    const closest = candidates.slice(0, 3).map((page) => ({ url: referenceUrl(page), title: page.title, sourceId: page.sourceId }));
    const grounding = { refused: given.length === 0, coverage: bestCoverage(candidates), closest, retrievalMs };
    const base = { model: request.model, provider: model.provider, modelId: model.modelId, sources: picked.sources, references, grounding };
    // A JSON reply is still asked of the model: it can say in JSON that the sources do not cover it.
    if (given.length === 0 && !format) {
      // Every refusal says what docent does answer, in the same words whichever rule refused: the reply must not
      // tell a key scoped to some sources anything about the words of the others.
      const text = `${NO_COVERAGE_REPLY} ${whatDocentAnswers(answerable)}`;
      return { ...base, parts: fixedReply(text, countTextTokens(query, deps.countTokens), deps.countTokens(text)) };
    }

    const prompt = buildPrompt(request.messages, documents, format);
    const call = {
      prompt,
      documents,
      temperature: request.temperature ?? undefined,
      topP: request.top_p ?? undefined,
      maxOutputTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
      stopSequences: typeof request.stop === "string" ? [request.stop] : (request.stop ?? undefined),
      seed: request.seed ?? undefined,
      user: request.user ?? undefined,
      responseFormat: format ?? undefined,
      abortSignal: signal,
    };
    let started: StreamResult;
    try {
      started = await model.doStream(call);
    } catch (error) {
      throw toDocentError(error);
    }
    const { stream } = started;
    // With AGENT_FALLBACK another provider may have answered: say which.
    const served = started.answeredBy ? { ...base, ...started.answeredBy } : base;
    if (format) {
      // A structured reply is whole before any of it is sent: waited for here, so a reply that never validates is
      // refused with its status (502) rather than after a stream has begun with 200.
      const parts = structuredReply(stream, { model, call, format, validator: deps.schemaValidator, countTokens: deps.countTokens, caller });
      const settled = await settledFirst(parts);
      // A refusal says first that it drew on no page: known before anything is sent, so no chunk lists one.
      const references = settled.first?.type === "references" ? settled.first.references : served.references;
      return { ...served, references, parts: settled.parts };
    }
    return {
      ...served,
      parts: relay(stream, model, () => countPromptTokens(prompt, deps.countTokens), deps.countTokens, grounded, request.include_references === true),
    };
  }

  function smallTalkCompletion(request: ChatCompletionRequest, model: LanguageModel, talk: SmallTalk, catalog: SourceInfo[]): OpenedCompletion {
    const text = smallTalkReply(talk, request.sources ? namedSources(request.sources, catalog) : catalog);
    return {
      model: request.model,
      provider: model.provider,
      modelId: model.modelId,
      sources: [],
      references: [],
      // Small talk is answered, not refused: it is no gap in the documentation.
      grounding: { refused: false, coverage: null, closest: [], retrievalMs: 0 },
      parts: fixedReply(text, countTextTokens(lastUserText(request.messages), deps.countTokens), deps.countTokens(text)),
    };
  }

  return { open, search };
}

/** The parts with the first one already read: thrown when it is an error, so it is refused before a response begins. */
async function settledFirst(parts: AsyncGenerator<ChatPart>): Promise<{ first: ChatPart | undefined; parts: AsyncIterable<ChatPart> }> {
  const first = await parts.next();
  if (!first.done && first.value.type === "error") throw first.value.error;
  return {
    first: first.done ? undefined : first.value,
    parts: (async function* () {
      if (first.done) return;
      yield first.value;
      yield* parts;
    })(),
  };
}
