/** The retrieval port: a function, plus the writer that ingestion uses. */
export interface Chunk {
  sourceId: string;
  /** Page URL, without fragment. */
  url: string;
  /** Fragment of the section within the page, when the page has ids (no `#`). */
  anchor: string;
  title: string;
  /** Section path, outermost first, joined with " › ". */
  section: string;
  text: string;
  /** Pages of the same source that the passage's section links to. */
  links?: PageLink[];
  /** The passage's embedding (title, section and text), when embeddings are configured. */
  embedding?: Float32Array;
}

/** A page a passage links to: its URL (no fragment) and the words of the links to it. */
export interface PageLink {
  url: string;
  text: string;
}

export interface RetrievedChunk extends Chunk {
  /** The chunk's identity within its index, for fusing result lists. */
  key?: string;
  /** Higher is better; comparable within one retriever only. */
  score: number;
  /** The query terms (`QueryTerm.term`) found anywhere in the chunk. */
  matched: string[];
  /** The query terms found in the page's title or file name. */
  titleMatched: string[];
  /** The query terms found in the chunk's section headings. */
  headingMatched: string[];
  /** Cosine similarity to the query's embedding, when found by vector search. */
  similarity?: number;
  /** Share of the question it covers when judged against a restatement of it (retrieval assist), if more than its own words' share. */
  coverage?: number;
}

/** A word of the query as the retriever understood it, with how telling it is. */
export interface QueryTerm {
  /** The normalised (stemmed) form chunks are matched on. */
  term: string;
  /** The word as searched: as asked, or the index's correction of a misspelling (`vacum` → `vacuum`). */
  text: string;
  /** Inverse document frequency: rare words weigh more; a word in no chunk weighs most. */
  weight: number;
}

export interface RetrievalResult {
  chunks: RetrievedChunk[];
  terms: QueryTerm[];
  /** The query terms (`QueryTerm.term`) a text holds, read as the retriever reads passages; for texts it did not search, such as links' words. */
  matches?: (text: string) => string[];
}

export interface RetrieveOptions {
  query: string;
  /** Only these sources; `undefined` searches every source in the index. */
  sourceIds?: readonly string[];
  limit: number;
  /** The request's signal: a retriever stops (rejects with an AbortError) once it aborts. */
  signal?: AbortSignal;
}

export type Retriever = (options: RetrieveOptions) => Promise<RetrievalResult>;

/** Nearest passages to a query vector (cosine), within the given sources; `matched` fields left empty. */
export type VectorSearch = (vector: Float32Array, sourceIds: readonly string[] | undefined, limit: number) => Promise<RetrievedChunk[]>;

export interface PageChunks {
  url: string;
  /** Content hash of the page, to skip unchanged pages on re-ingestion. */
  hash: string;
  chunks: Chunk[];
}

export interface IndexWriter {
  /** Content hash of every page indexed for a source, by page URL. */
  pageHashes(sourceId: string): Promise<Map<string, string>>;
  /**
   * Replaces the given pages and removes the given URLs of a source in one
   * atomic step (readers see the old state or the new, never a mix); returns
   * the source's totals afterwards.
   */
  applyChanges(sourceId: string, changes: { upsert: PageChunks[]; remove: string[] }): Promise<{ pages: number; chunks: number }>;
  /** Replaces everything indexed for a source in one atomic step. */
  replaceSource(sourceId: string, pages: PageChunks[]): Promise<{ pages: number; chunks: number }>;
  removeSource(sourceId: string): Promise<void>;
}
