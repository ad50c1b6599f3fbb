/**
 * Keeping sources fresh: what a sync reports, one sync per source at a time
 * across processes (leases), and crawled pages' validators for conditional
 * requests. Adapters: src/db/ (Prisma); the orchestration: src/sync/.
 */

/** What one ingestion of a source did, page by page, and what the source holds after it. */
export interface PageCounts {
  added: number;
  changed: number;
  removed: number;
  /** Pages found unchanged, by content hash or because the server said so (`notModified`, included here). */
  unchanged: number;
  /** Pages the server answered 304 Not Modified for: not downloaded. */
  notModified: number;
  /** Files that could not be read, were binary, or held no text. */
  skipped: number;
  /** Pages and chunks of the source after it. */
  pages: number;
  chunks: number;
}

/** One sync's summary, as stored with the source, logged, and shown as `last_sync`. */
export interface SyncSummary extends PageCounts {
  status: "ok" | "failed";
  /** `add`: the first ingestion; `manual`: `sources sync`; `schedule`: the server's schedule. */
  trigger: "add" | "manual" | "schedule";
  /** ISO 8601. */
  startedAt: string;
  finishedAt: string;
  seconds: number;
  /** Why it failed: a short code and a message that never names a local folder. */
  error: { code: string; message: string } | null;
}

/**
 * One sync of a source at a time: whoever holds a source's lease syncs it and
 * renews the lease while it works; a lease not renewed lapses, so a crashed
 * holder blocks no one for longer than its time to live.
 */
export interface SyncLeases {
  /** True when `holder` now holds the source's lease (it was free or had lapsed). */
  acquire(sourceId: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Extends a lease `holder` holds; false when it lost it. */
  renew(sourceId: string, holder: string, ttlMs: number): Promise<boolean>;
  release(sourceId: string, holder: string): Promise<void>;
  /** Who holds the source's lease now, if anyone. */
  holder(sourceId: string): Promise<{ holder: string; expiresAt: Date } | null>;
}

/** What a crawled page's server said about its last download, for `If-None-Match` / `If-Modified-Since`. */
export interface PageValidator {
  etag: string | null;
  lastModified: string | null;
  /** In-scope links the page held, followed again when it answers 304 (link-followed crawls). */
  links: string[] | null;
  /** What the page was indexed as (extraction version, base URL); a validator of another basis is not used. */
  basis: string;
}

export interface PageValidatorStore {
  load(sourceId: string): Promise<Map<string, PageValidator>>;
  /** Replaces all of a source's validators. */
  replace(sourceId: string, validators: ReadonlyMap<string, PageValidator>): Promise<void>;
}
