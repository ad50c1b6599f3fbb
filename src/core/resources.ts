import type { ModelDescription } from "./model-registry.ts";
import { referenceUrl } from "./rank-pages.ts";
import type { StoredPage } from "./retriever.ts";
import type { SourceInfo } from "./source-catalog.ts";
import type { SyncSummary } from "./source-sync.ts";

/**
 * The one shape of a knowledge source and of a model, shared by every
 * interface (REST and tRPC as is, GraphQL in camelCase). Only what a caller
 * may see: never the local folder a source was read from.
 */
export interface SourceResource {
  id: string;
  object: "knowledge_source";
  name: string;
  description: string;
  base_url: string;
  pages: number;
  chunks: number;
  /** Unix seconds. */
  created_at: number;
  updated_at: number;
  /** Unix seconds: when it was last read from its origin successfully; null before its first recorded sync. */
  last_synced_at: number | null;
  /** The last sync (by hand, by cron or on the server's schedule), succeeded or failed; null before the first. */
  last_sync: SourceSyncResource | null;
}

export interface SourceSyncResource {
  status: "ok" | "failed";
  trigger: "add" | "manual" | "schedule";
  /** Unix seconds. */
  started_at: number;
  finished_at: number;
  seconds: number;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  /** Pages its server answered 304 Not Modified for (counted in `unchanged`): not downloaded. */
  not_modified: number;
  skipped: number;
  error: { code: string; message: string } | null;
}

export interface ModelResource {
  id: string;
  object: "model";
  /** Unix seconds: when this server started, as the models are its configuration. */
  created: number;
  owned_by: "docent";
  resolves_to: string;
  structured_resolves_to?: string | null;
  available: boolean;
  unavailable_reason: string | null;
}

/** One stored page of a source, section by section; each section's URL carries its anchor where the page has one. */
export interface PageResource {
  object: "page";
  url: string;
  title: string;
  source_id: string;
  source_name: string;
  sections: Array<{ section: string; url: string; text: string }>;
}

export interface ListResource<T> {
  object: "list";
  data: T[];
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export const syncResource = (s: SyncSummary): SourceSyncResource => ({
  status: s.status,
  trigger: s.trigger,
  started_at: seconds(new Date(s.startedAt)),
  finished_at: seconds(new Date(s.finishedAt)),
  seconds: s.seconds,
  added: s.added,
  changed: s.changed,
  removed: s.removed,
  unchanged: s.unchanged,
  not_modified: s.notModified,
  skipped: s.skipped,
  error: s.error,
});

export const sourceResource = (s: SourceInfo): SourceResource => ({
  id: s.id,
  object: "knowledge_source",
  name: s.name,
  description: s.description,
  base_url: s.baseUrl,
  pages: s.pages,
  chunks: s.chunks,
  created_at: seconds(s.createdAt),
  updated_at: seconds(s.updatedAt),
  last_synced_at: s.lastSyncedAt ? seconds(s.lastSyncedAt) : null,
  last_sync: s.lastSync ? syncResource(s.lastSync) : null,
});

export const pageResource = (page: StoredPage, source: Pick<SourceInfo, "name">): PageResource => ({
  object: "page",
  url: page.url,
  title: page.title,
  source_id: page.sourceId,
  source_name: source.name,
  sections: page.passages.flatMap((p) =>
    sectionsOf(p).map((s) => ({ section: s.section, url: referenceUrl({ url: page.url, anchor: s.anchor }), text: s.text })),
  ),
});

/** A passage's sections: short sections merged into one passage are read back apart, each with its own anchor. */
function sectionsOf(passage: StoredPage["passages"][number]): Array<{ anchor: string; section: string; text: string }> {
  const spans = passage.spans;
  if (!spans || spans.length < 2) return [passage];
  return spans.map((span, i) => ({ anchor: span.anchor, section: span.section, text: passage.text.slice(span.start, spans[i + 1]?.start).trim() }));
}

const STARTED = seconds(new Date());

export const modelResource = (m: ModelDescription): ModelResource => ({
  id: m.id,
  object: "model",
  created: STARTED,
  owned_by: "docent",
  resolves_to: m.resolvesTo,
  ...(m.structuredResolvesTo !== undefined && { structured_resolves_to: m.structuredResolvesTo }),
  available: m.available,
  unavailable_reason: m.unavailableReason,
});

export const listOf = <T>(data: T[]): ListResource<T> => ({ object: "list", data });
