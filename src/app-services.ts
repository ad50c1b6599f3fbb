import OpenAI from "openai";
import { type Config, databaseFile, indexFile } from "./config.ts";
import { createChatEngine } from "./core/chat-engine.ts";
import type { CompletionObserver } from "./core/completion-outcome.ts";
import type { Embedder } from "./core/embedder.ts";
import type { KeyStore } from "./core/key-store.ts";
import type { ModelRegistry } from "./core/model-registry.ts";
import type { RateLimiter } from "./core/rate-limiter.ts";
import { createResourceReader, type ResourceReader } from "./core/resource-reader.ts";
import type { IndexWriter, PageReader, Retriever } from "./core/retriever.ts";
import type { SourceCatalog } from "./core/source-catalog.ts";
import type { PageValidatorStore, SyncLeases } from "./core/source-sync.ts";
import { ensureDataDir } from "./data-dir.ts";
import { createCachedKeyStore } from "./db/cached-key-store.ts";
import { createCachedSourceCatalog } from "./db/cached-source-catalog.ts";
import { watchChanges } from "./db/change-counter.ts";
import { migrateDatabase } from "./db/migrate-database.ts";
import { createPostgresClient, createSqliteClient, isPostgresUrl } from "./db/prisma-client.ts";
import { createPrismaPageValidators } from "./db/prisma-page-validators.ts";
import { createPrismaSyncLeases } from "./db/prisma-sync-leases.ts";
import { type Logger, silentLogger } from "./logging/logger.ts";
import { createServiceMetrics, type ServiceMetrics } from "./metrics/service-metrics.ts";
import { createModelRegistry } from "./providers/model-registry.ts";
import { createOpenAIEmbedder } from "./providers/openai/openai-embedder.ts";
import { countTokens } from "./providers/tokenizer.ts";
import { createRateLimiter } from "./rate-limit/create-rate-limiter.ts";
import { openSqliteIndex } from "./retrieval/embedded/sqlite-index.ts";
import { isEnglishWord } from "./retrieval/english-words.ts";
import { makeHybridRetriever } from "./retrieval/hybrid-retriever.ts";
import { createThreadedSchemaValidator } from "./structured/threaded-validator.ts";
import { englishAnalyzer } from "./text/english-analyzer.ts";
import { everydayShare } from "./text/everyday-english.ts";
import { isSoftwareTerm } from "./text/software-terms.ts";
import { createUsageServices, type UsageServices } from "./usage-services.ts";
import { warmUp } from "./warm-up.ts";

export type ChatEngine = ReturnType<typeof createChatEngine>;

export interface AppServices {
  config: Config;
  /** Embeds passages at ingestion and queries at search time, when configured. */
  embedder?: Embedder;
  catalog: SourceCatalog;
  keys: KeyStore;
  retrieve: Retriever;
  writer: IndexWriter;
  /** A stored page's passages (ingestion reads the unchanged pages of a source it syncs through it). */
  readPage: PageReader;
  models: ModelRegistry;
  engine: ChatEngine;
  /** Sources and models as callers see them, for every interface. */
  resources: ResourceReader;
  /** Per-key request rate and concurrency, acquired once per request by http/admission.ts for every interface. */
  rateLimiter: RateLimiter;
  /** Told of every completion's outcome (usage, metrics…); add one here to follow completions. */
  completionObservers: CompletionObserver[];
  /** Structured logs (silent unless given: the CLI prints for people). */
  logger: Logger;
  /** Prometheus metrics (served at /metrics); it follows completions as one of the observers. */
  metrics: ServiceMetrics;
  /** One sync of a source at a time, across processes (src/sync/). */
  syncLeases: SyncLeases;
  /** Crawled pages' ETag/Last-Modified, for conditional requests at the next sync. */
  pageValidators: PageValidatorStore;
  /** Usage per key, served completions and feedback; its ledger is one of the completion observers. */
  usage: UsageServices;
  close(): Promise<void>;
}

/**
 * Wires configuration to adapters and the core: the database (migrated
 * first), the embedded index, the models and the chat engine.
 */
export async function createServices(
  config: Config,
  { preloadIndex = true, logger = silentLogger() }: { preloadIndex?: boolean; logger?: Logger } = {},
): Promise<AppServices> {
  // A server loads its tables now, not in its first requests (a CLI command needs neither).
  if (preloadIndex) warmUp();
  // DATA_DIR holds the SQLite database and the embedded index, unless both live elsewhere.
  if (!config.DATABASE_URL || !config.WEAVIATE_URL) ensureDataDir(config.DATA_DIR);
  await migrateDatabase(config);
  // One reading of text for indexing, questions, coverage and the offline generator.
  const analyzer = englishAnalyzer;
  const prisma = isPostgresUrl(config.DATABASE_URL) ? await createPostgresClient(config.DATABASE_URL!) : createSqliteClient(databaseFile(config));
  // Weaviate when WEAVIATE_URL is set (loaded only then), else the embedded on-disk index.
  const index = config.WEAVIATE_URL
    ? await (await import("./retrieval/weaviate/weaviate-index.ts")).openWeaviateIndex({
        url: config.WEAVIATE_URL,
        grpcUrl: config.WEAVIATE_GRPC_URL,
        apiKey: config.WEAVIATE_API_KEY,
        prefix: config.WEAVIATE_COLLECTION_PREFIX,
        analyzer,
      })
    : openSqliteIndex(indexFile(config), { preload: preloadIndex, refreshMs: preloadIndex ? config.REFRESH_INTERVAL_MS : undefined, analyzer });
  const embedder = config.EMBEDDINGS_MODEL
    ? createOpenAIEmbedder({
        client: new OpenAI({
          apiKey: config.EMBEDDINGS_API_KEY ?? "not-needed",
          baseURL: config.EMBEDDINGS_BASE_URL,
          timeout: config.PROVIDER_TIMEOUT_MS,
          maxRetries: config.PROVIDER_MAX_RETRIES,
        }),
        modelId: config.EMBEDDINGS_MODEL,
      })
    : undefined;
  const retrieve = embedder
    ? makeHybridRetriever({
        lexical: index.retrieve,
        vectorSearch: index.vectorSearch,
        embedder,
        mode: config.RETRIEVAL_MODE,
        alpha: config.HYBRID_ALPHA,
        analyzer,
      })
    : index.retrieve;
  // Keys and sources are read on every request: held in memory, reloaded when the change counter moves.
  const catalog = createCachedSourceCatalog(prisma);
  const keys = createCachedKeyStore(prisma);
  // The counter is read before the first load, so a change made in between is seen at the next look.
  // An ingest writes the index before the catalog, so the index is refreshed first: a source listed is a source searched.
  const onChange = () => {
    if ("refresh" in index) index.refresh();
    return Promise.all([catalog.reload(), keys.reload()]);
  };
  const changes = watchChanges(prisma, { intervalMs: config.REFRESH_INTERVAL_MS, onChange });
  await changes.started;
  await Promise.all([catalog.reload(), keys.reload()]);
  const models = createModelRegistry(config, countTokens, analyzer);
  // Loaded now, so the first structured request does not wait for the thread.
  const schemaValidator = createThreadedSchemaValidator();
  schemaValidator.warm();
  const engine = createChatEngine({
    catalog,
    retrieve,
    models,
    countTokens,
    schemaValidator,
    maxReferences: config.MAX_REFERENCES,
    minSimilarity: config.EMBEDDINGS_MIN_SIMILARITY,
    isWord: isEnglishWord,
    isSoftwareTerm,
    everyday: everydayShare,
    analyzer,
    sourceChoiceTimeoutMs: config.AGENT_SOURCE_CHOICE_TIMEOUT_MS,
    inputLimits: { maxMessages: config.MAX_MESSAGES, maxMessageChars: config.MAX_MESSAGE_CHARS, maxInputChars: config.MAX_INPUT_CHARS },
    retrievalAssist: { mode: config.RETRIEVAL_ASSIST, timeoutMs: config.RETRIEVAL_ASSIST_TIMEOUT_MS },
  });
  const rateLimiter = await createRateLimiter(config);
  const metrics = createServiceMetrics({ catalog });
  const usage = createUsageServices(prisma, config, (line) => logger.warn(line));
  return {
    config,
    embedder,
    catalog,
    keys,
    retrieve,
    writer: index.writer,
    readPage: index.readPage,
    models,
    engine,
    resources: createResourceReader({ catalog, models, readPage: index.readPage }),
    rateLimiter,
    completionObservers: [metrics.observer, usage.ledger],
    logger,
    metrics,
    syncLeases: createPrismaSyncLeases(prisma),
    pageValidators: createPrismaPageValidators(prisma),
    usage,
    async close() {
      changes.close();
      await rateLimiter.close();
      // Buffered usage is written before the database closes: a graceful stop loses none.
      // A write that fails here is reported, not thrown: the databases still close.
      await usage.close().catch((error: unknown) => logger.error({ err: error }, "could not write the buffered usage and served completions at stop"));
      await prisma.$disconnect();
      await index.close();
      await schemaValidator.close();
    },
  };
}
