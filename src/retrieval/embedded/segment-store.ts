import type Database from "better-sqlite3";
import { MAX_16_BIT_DOCS, typed } from "./segment.ts";

/** A source's segment as searched: terms by interned id, postings as typed arrays. */
export interface LoadedSegment {
  sourceId: string;
  generation: number;
  /** Passages, and their total weighted length (for the average). */
  n: number;
  tokens: number;
  rowids: Float64Array;
  lengths: Uint32Array;
  /** Interned term ids, ascending; `slots[i]` is the term's index into `starts`. */
  ids: Int32Array;
  slots: Uint32Array;
  starts: Uint32Array;
  docs: Uint16Array | Uint32Array;
  freqs: Uint8Array;
  masks: Uint8Array;
}

/** The postings range of an interned term in a segment, or null. */
export function postingsOf(segment: LoadedSegment, id: number): [number, number] | null {
  const ids = segment.ids;
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) {
      const slot = segment.slots[mid]!;
      return [segment.starts[slot]!, segment.starts[slot + 1]!];
    }
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}

/** How many passages of a segment hold an interned term. */
export function postingsCount(segment: LoadedSegment, id: number): number {
  const range = postingsOf(segment, id);
  return range ? range[1] - range[0] : 0;
}

interface SegmentRow {
  sourceId: string;
  generation: number;
  docs: number;
  tokens: number;
  terms: string;
  rowids: Buffer;
  lengths: Buffer;
  starts: Buffer;
  postings: Buffer;
  freqs: Buffer;
  masks: Buffer;
}

/**
 * Every source's segment, held in memory and kept in step with the database:
 * when this or another connection commits, the segments whose generation
 * changed are reloaded from one consistent snapshot.
 */
export function makeSegmentStore(db: Database.Database) {
  const dataVersion = db.prepare(`PRAGMA data_version`).pluck();
  const generations = db.prepare(`SELECT source_id AS sourceId, generation FROM segment`);
  const row = db.prepare(`SELECT source_id AS sourceId, generation, docs, tokens, terms, rowids, lengths, starts, postings, freqs, masks FROM segment WHERE source_id = ?`);
  const dictionary = new Map<string, number>();
  const loaded = new Map<string, LoadedSegment>();
  let version = -1;
  let dirty = true;

  const intern = (term: string) => {
    let id = dictionary.get(term);
    if (id === undefined) dictionary.set(term, (id = dictionary.size));
    return id;
  };
  const load = (r: SegmentRow): LoadedSegment => {
    const terms = r.terms ? r.terms.split("\n") : [];
    const order = terms.map((term, slot) => [intern(term), slot] as const).sort((a, b) => a[0] - b[0]);
    return {
      sourceId: r.sourceId,
      generation: r.generation,
      n: r.docs,
      tokens: r.tokens,
      rowids: typed(r.rowids, Float64Array),
      lengths: typed(r.lengths, Uint32Array),
      ids: Int32Array.from(order, (o) => o[0]),
      slots: Uint32Array.from(order, (o) => o[1]),
      starts: typed(r.starts, Uint32Array),
      docs: r.docs <= MAX_16_BIT_DOCS ? typed(r.postings, Uint16Array) : typed(r.postings, Uint32Array),
      freqs: typed(r.freqs, Uint8Array),
      masks: typed(r.masks, Uint8Array),
    };
  };
  const refresh = db.transaction(() => {
    const live = generations.all() as Array<{ sourceId: string; generation: number }>;
    const ids = new Set(live.map((l) => l.sourceId));
    for (const id of loaded.keys()) if (!ids.has(id)) loaded.delete(id);
    for (const { sourceId, generation } of live) {
      if (loaded.get(sourceId)?.generation === generation) continue;
      loaded.set(sourceId, load(row.get(sourceId) as SegmentRow));
    }
  });

  return {
    /** The segments as last committed, by source id. */
    current(): ReadonlyMap<string, LoadedSegment> {
      const v = dataVersion.get() as number;
      if (dirty || v !== version) {
        refresh();
        version = v;
        dirty = false;
      }
      return loaded;
    },
    /** This connection wrote: reload before the next search (SQLite's data_version only counts other connections). */
    invalidate() {
      dirty = true;
    },
    termId: (term: string) => dictionary.get(term),
  };
}
