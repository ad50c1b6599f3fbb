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
}

export interface RetrievedChunk extends Chunk {
  /** Higher is better; comparable within one retriever only. */
  score: number;
}

export interface RetrieveOptions {
  query: string;
  /** Only these sources; `undefined` searches every source in the index. */
  sourceIds?: readonly string[];
  limit: number;
}

export type Retriever = (options: RetrieveOptions) => Promise<RetrievedChunk[]>;

export interface PageChunks {
  url: string;
  /** Content hash of the page, to skip unchanged pages on re-ingestion. */
  hash: string;
  chunks: Chunk[];
}

export interface IndexWriter {
  /** Replaces everything indexed for a source in one atomic step. */
  replaceSource(sourceId: string, pages: PageChunks[]): Promise<{ pages: number; chunks: number }>;
  removeSource(sourceId: string): Promise<void>;
}
