import type { SyncSummary } from "./source-sync.ts";

/** The source catalog port: knowledge-source metadata, wherever it is stored. */
export interface SourceInfo {
  id: string;
  name: string;
  description: string;
  baseUrl: string;
  origin: string;
  pages: number;
  chunks: number;
  createdAt: Date;
  updatedAt: Date;
  // Sync state (optional: catalogs made up in tests and benches need not say).
  /** How often the server re-syncs it, in seconds: null follows SYNC_INTERVAL, 0 never. */
  refreshSeconds?: number | null;
  /** When it was last read from its origin successfully. */
  lastSyncedAt?: Date | null;
  /** The last sync's summary, ok or failed. */
  lastSync?: SyncSummary | null;
  /** A crawled source's crawl settings, kept for its syncs (none: the crawler's defaults). */
  crawl?: CrawlSettings | null;
}

/** What `sources add --url` was told about the crawl, which every later sync of the source follows. */
export interface CrawlSettings {
  maxPages?: number;
  sitemap?: string;
}

export type NewSource = Pick<SourceInfo, "id" | "name" | "description" | "baseUrl" | "origin" | "pages" | "chunks">;

export interface SourceCatalog {
  list(): Promise<SourceInfo[]>;
  get(id: string): Promise<SourceInfo | null>;
  findByName(name: string): Promise<SourceInfo | null>;
  upsert(source: NewSource): Promise<SourceInfo>;
  /** Removes the source and what its syncs kept (validators, lease). */
  remove(id: string): Promise<boolean>;
  /** Stores a sync's summary; an ok one also moves `lastSyncedAt` to its end. Leaves `updatedAt` alone. */
  recordSync(id: string, summary: SyncSummary): Promise<void>;
  /** Sets how often the server re-syncs the source (seconds; null: SYNC_INTERVAL; 0: never). */
  setRefresh(id: string, seconds: number | null): Promise<void>;
  /** Sets the crawl settings the source's syncs follow (null: the crawler's defaults). */
  setCrawl(id: string, settings: CrawlSettings | null): Promise<void>;
}
