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
  /**
   * Where the text comes from when it spans several sections (short sections
   * merged into one passage): each section's start in `text`, in order, the
   * first at 0 with `anchor` and `section`. Absent: the whole text is one section.
   */
  spans?: SectionSpan[];
  /** The passage's embedding (title, section and text), when embeddings are configured. */
  embedding?: Float32Array;
}

/** A section's stretch of a passage's text: from `start` to the next span's start (or the end). */
export interface SectionSpan {
  start: number;
  /** The section's fragment within the page (no `#`), "" when it has none. */
  anchor: string;
  /** The section's path, as `Chunk.section`. */
  section: string;
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
  /** The share of the index's words (all its passages', as `weight` is over all of them) that are this term (0: none holds it); absent when the retriever does not count words. */
  share?: number;
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
  /**
   * The sources the caller may see (a scoped key's); `undefined`: every source.
   * What the query's words weigh and how a misspelling is read come from these
   * only, so a key learns nothing of the words of sources it cannot see.
   */
  visible?: readonly string[];
  limit: number;
  /** The request's signal: a retriever stops (rejects with an AbortError) once it aborts. */
  signal?: AbortSignal;
}

export type Retriever = (options: RetrieveOptions) => Promise<RetrievalResult>;

/** Nearest passages to a query vector (cosine), within the given sources; `matched` fields left empty. */
export type VectorSearch = (vector: Float32Array, sourceIds: readonly string[] | undefined, limit: number) => Promise<RetrievedChunk[]>;

/** One stored page of a source: its passages in page order, as ingestion wrote them. */
export interface StoredPage {
  sourceId: string;
  /** Page URL, without fragment. */
  url: string;
  title: string;
  /** `spans` when a passage holds several short sections (an index that keeps them). */
  passages: Array<Pick<Chunk, "anchor" | "section" | "text" | "spans">>;
}

/** The stored page at `url` (no fragment) in one of the given sources; null when none of them holds it. */
export type PageReader = (url: string, sourceIds: readonly string[]) => Promise<StoredPage | null>;

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
  /** Every source the index holds passages of (a catalog's sources, and any a crash left behind it). */
  sourceIds(): Promise<string[]>;
}
