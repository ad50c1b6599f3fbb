import { randomUUID } from "node:crypto";
import weaviate, { Filters, type WeaviateClient } from "weaviate-client";
import type { IndexWriter, PageChunks, PageReader, QueryTerm, RetrievedChunk, Retriever, VectorSearch } from "../../core/retriever.ts";
import { makeTermMatcher, queryWords, type TextAnalyzer } from "../../core/text-analyzer.ts";
import { englishAnalyzer } from "../../text/english-analyzer.ts";
import { identifierParts } from "../embedded/identifier-parts.ts";
import { readLinks, storedLinks } from "../stored-links.ts";
import { readSpans, storedSpans } from "../stored-spans.ts";
import { collectionNames, ensureCollections } from "./collections.ts";

export interface WeaviateIndexOptions {
  url: string;
  /** gRPC address; default: the HTTP host on port 50051. */
  grpcUrl?: string;
  apiKey?: string;
  /** Collections are `${prefix}Chunk`, `${prefix}Page`, `${prefix}Source`. */
  prefix?: string;
  /** How questions and found passages are read for the question's terms (the one analyzer). */
  analyzer?: TextAnalyzer;
}

/** `position`: the passage's place in its page (absent on objects written before it was kept). */
type ChunkProps = {
  sourceId: string;
  generation: string;
  url: string;
  anchor: string;
  title: string;
  section: string;
  text: string;
  idents: string;
  links?: string;
  position?: number;
  spans?: string;
};
type PageProps = { sourceId: string; generation: string; url: string; hash: string };
const BATCH = 500;

const passage = (uuid: string, p: ChunkProps) => {
  const spans = readSpans(p.spans);
  return {
    key: uuid,
    sourceId: p.sourceId,
    url: p.url,
    anchor: p.anchor,
    title: p.title,
    section: p.section,
    text: p.text,
    links: readLinks(p.links),
    ...(spans && { spans }),
  };
};

/** A source's live generation has the source's id as its object id, so flipping it is one write. */
const sourceObjectId = (sourceId: string) => sourceId;

/**
 * The retriever port on Weaviate. Every update of a source writes a new
 * generation of its objects, then flips the source's live generation in one
 * object write, then deletes the old one: readers, which search only live
 * generations, see the old state or the new, never a mix.
 */
export async function openWeaviateIndex(options: WeaviateIndexOptions) {
  const http = new URL(options.url);
  const grpc = new URL(options.grpcUrl ?? `${http.protocol}//${http.hostname}:50051`);
  const client: WeaviateClient = await weaviate.connectToCustom({
    httpHost: http.hostname,
    httpPort: Number(http.port || (http.protocol === "https:" ? 443 : 80)),
    httpSecure: http.protocol === "https:",
    grpcHost: grpc.hostname,
    grpcPort: Number(grpc.port || 50051),
    grpcSecure: grpc.protocol === "https:",
    authCredentials: options.apiKey ? new weaviate.ApiKey(options.apiKey) : undefined,
  });
  const names = collectionNames(options.prefix ?? "Docent");
  const analyzer = options.analyzer ?? englishAnalyzer;
  await ensureCollections(client, names);
  const chunks = client.collections.use<string, ChunkProps>(names.chunk);
  const pages = client.collections.use<string, PageProps>(names.page);
  const sources = client.collections.use<string, { sourceId: string; generation: string }>(names.source);

  async function liveGenerations(sourceIds?: readonly string[]): Promise<Map<string, string>> {
    const live = new Map<string, string>();
    for (let offset = 0; ; offset += BATCH) {
      const { objects } = await sources.query.fetchObjects({ limit: BATCH, offset });
      for (const o of objects) if (!sourceIds || sourceIds.includes(o.properties.sourceId)) live.set(o.properties.sourceId, o.properties.generation);
      if (objects.length < BATCH) return live;
    }
  }

  async function fetchAll<P>(
    collection: { query: { fetchObjects(o: object): Promise<{ objects: Array<{ properties: P; vectors?: { default?: number[] } }> }> } },
    filters: unknown,
    withVectors = false,
  ): Promise<P[]> {
    const out: P[] = [];
    for (let offset = 0; ; offset += BATCH) {
      const { objects } = await collection.query.fetchObjects({ filters, limit: BATCH, offset, ...(withVectors && { includeVector: true }) });
      out.push(...objects.map((o) => (withVectors && o.vectors?.default ? { ...o.properties, vectors: o.vectors.default } : o.properties)));
      if (objects.length < BATCH) return out;
    }
  }

  async function insertAll(collection: { data: { insertMany(o: object[]): Promise<{ hasErrors: boolean; errors: object }> } }, objects: object[]) {
    for (let i = 0; i < objects.length; i += BATCH) {
      const result = await collection.data.insertMany(objects.slice(i, i + BATCH));
      if (result.hasErrors) throw new Error(`Weaviate batch insert failed: ${JSON.stringify(result.errors).slice(0, 500)}`);
    }
  }

  const byGeneration = (generation: string) => Filters.and(pages.filter.byProperty("generation").equal(generation));

  /** Writes the source's next generation: the upserted pages plus the unchanged ones carried over. */
  async function writeGeneration(sourceId: string, upsert: PageChunks[], remove: Set<string>, carry: boolean) {
    const live = (await liveGenerations([sourceId])).get(sourceId);
    const next = randomUUID();
    const replaced = new Set([...remove, ...upsert.map((p) => p.url)]);
    try {
      if (live && carry) {
        const keptChunks = (await fetchAll<ChunkProps & { vectors?: unknown }>(chunks, chunks.filter.byProperty("generation").equal(live), true)).filter(
          (c) => !replaced.has(c.url),
        );
        const keptPages = (await fetchAll<PageProps>(pages, byGeneration(live))).filter((p) => !replaced.has(p.url));
        await insertAll(
          chunks,
          keptChunks.map(({ vectors, ...c }) => ({ properties: { ...c, generation: next }, ...(vectors ? { vectors } : {}) })),
        );
        await insertAll(
          pages,
          keptPages.map((p) => ({ properties: { ...p, generation: next } })),
        );
      }
      await insertAll(
        chunks,
        upsert.flatMap((page) =>
          page.chunks.map((c, position) => ({
            properties: {
              sourceId,
              generation: next,
              url: c.url,
              anchor: c.anchor,
              title: c.title,
              section: c.section,
              text: c.text,
              idents: identifierParts(`${c.title} ${c.section} ${c.text}`),
              links: storedLinks(c.links),
              position,
              spans: storedSpans(c.spans),
            },
            ...(c.embedding && { vectors: Array.from(c.embedding) }),
          })),
        ),
      );
      await insertAll(
        pages,
        upsert.map((p) => ({ properties: { sourceId, generation: next, url: p.url, hash: p.hash } })),
      );
      // The flip: one object write makes the new generation the one served.
      if (await sources.data.exists(sourceObjectId(sourceId)))
        await sources.data.replace({ id: sourceObjectId(sourceId), properties: { sourceId, generation: next } });
      else await sources.data.insert({ id: sourceObjectId(sourceId), properties: { sourceId, generation: next } });
    } catch (error) {
      await dropGeneration(next).catch(() => {});
      throw error;
    }
    if (live) await dropGeneration(live);
    const counts = await Promise.all([
      pages.aggregate.overAll({ filters: pages.filter.byProperty("generation").equal(next) }),
      chunks.aggregate.overAll({ filters: chunks.filter.byProperty("generation").equal(next) }),
    ]);
    return { pages: counts[0].totalCount, chunks: counts[1].totalCount };
  }

  async function dropGeneration(generation: string) {
    await chunks.data.deleteMany(chunks.filter.byProperty("generation").equal(generation));
    await pages.data.deleteMany(pages.filter.byProperty("generation").equal(generation));
  }

  const retrieve: Retriever = async ({ query, sourceIds, limit, signal }) => {
    signal?.throwIfAborted();
    const words = queryWords(analyzer, query);
    // Weaviate does not expose document frequencies: every term weighs the same.
    // One term per stem, as first asked (as the embedded index does).
    const terms: QueryTerm[] = [];
    for (const text of words) {
      const term = analyzer.term(text);
      if (!terms.some((t) => t.term === term)) terms.push({ term, text, weight: 1 });
    }
    const generations = [...(await liveGenerations(sourceIds)).values()];
    if (words.length === 0 || generations.length === 0) return { chunks: [], terms };
    const result = await chunks.query.bm25(words.join(" "), {
      queryProperties: [{ name: "title", weight: 4 }, { name: "section", weight: 2 }, "text", "idents"],
      filters: chunks.filter.byProperty("generation").containsAny(generations),
      limit,
      returnMetadata: ["score"],
    });
    const matcher = makeTermMatcher(
      analyzer,
      terms.map((t) => t.term),
    );
    const found: RetrievedChunk[] = result.objects.map(({ uuid, properties: p, metadata }) => ({
      ...passage(uuid, p),
      score: metadata?.score ?? 0,
      matched: matcher(`${p.title} ${p.section} ${p.text} ${p.idents}`),
      titleMatched: matcher(`${p.title} ${p.url.slice(p.url.lastIndexOf("/") + 1).replace(/\.[a-z]+$/, "")}`),
      headingMatched: matcher(`${p.section} ${identifierParts(p.section)}`),
    }));
    return { chunks: found, terms, matches: matcher };
  };

  const vectorSearch: VectorSearch = async (vector, sourceIds, limit) => {
    const generations = [...(await liveGenerations(sourceIds)).values()];
    if (generations.length === 0) return [];
    const result = await chunks.query.nearVector(Array.from(vector), {
      filters: chunks.filter.byProperty("generation").containsAny(generations),
      limit,
      returnMetadata: ["distance"],
    });
    return result.objects.map(({ uuid, properties, metadata }) => ({
      ...passage(uuid, properties),
      score: 1 - (metadata?.distance ?? 1),
      matched: [],
      titleMatched: [],
      headingMatched: [],
    }));
  };

  // A page is a few dozen passages at most: fetched whole from the live generations, put in page order here.
  const readPage: PageReader = async (url, sourceIds) => {
    const generations = [...(await liveGenerations(sourceIds)).values()];
    if (generations.length === 0) return null;
    const found = await fetchAll<ChunkProps>(
      chunks,
      Filters.and(chunks.filter.byProperty("generation").containsAny(generations), chunks.filter.byProperty("url").equal(url)),
    );
    const first = found[0];
    if (!first) return null;
    // Two sources may hold the same URL: the page is one source's, never a mix.
    const passages = found.filter((p) => p.sourceId === first.sourceId).sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
    return { sourceId: first.sourceId, url, title: first.title, passages: passages.map(({ anchor, section, text }) => ({ anchor, section, text })) };
  };

  const writer: IndexWriter = {
    async pageHashes(sourceId) {
      const live = (await liveGenerations([sourceId])).get(sourceId);
      if (!live) return new Map();
      return new Map((await fetchAll<PageProps>(pages, byGeneration(live))).map((p) => [p.url, p.hash]));
    },
    applyChanges: (sourceId, { upsert, remove }) => writeGeneration(sourceId, upsert, new Set(remove), true),
    replaceSource: (sourceId, all) => writeGeneration(sourceId, all, new Set(), false),
    async removeSource(sourceId) {
      const live = (await liveGenerations([sourceId])).get(sourceId);
      if (await sources.data.exists(sourceObjectId(sourceId))) await sources.data.deleteById(sourceObjectId(sourceId));
      if (live) await dropGeneration(live);
    },
    sourceIds: async () => [...(await liveGenerations()).keys()],
  };

  return {
    retrieve,
    vectorSearch,
    writer,
    readPage,
    /** Deletes the collections (for tests with a throw-away prefix). */
    async drop() {
      for (const name of Object.values(names)) if (await client.collections.exists(name)) await client.collections.delete(name);
    },
    close: () => client.close(),
  };
}
