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
  /**
   * Per posting, its weighted term frequency (capped at 31) << 3 | its field
   * bits: one byte instead of the stored two, which at ×10 is 19 MB less held.
   * BM25 saturates long before 31 (k1 1.2: at average passage length 31
   * scores 3% under 255), and only 0.16% of the ×10 index's postings exceed it.
   */
  weights: Uint8Array;
}

/** The weight byte of a posting: its frequency and field bits. */
export const MAX_PACKED_FREQ = 31;
export const packedFreq = (weight: number) => weight >>> 3;
export const packedMask = (weight: number) => weight & 7;

export function packWeights(freqs: Uint8Array, masks: Uint8Array): Uint8Array {
  const weights = new Uint8Array(freqs.length);
  for (let i = 0; i < freqs.length; i++) weights[i] = (Math.min(MAX_PACKED_FREQ, freqs[i]!) << 3) | masks[i]!;
  return weights;
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

/** What searches read: the segments and the dictionary their term ids index, swapped as one. */
interface Loaded {
  segments: ReadonlyMap<string, LoadedSegment>;
  dictionary: ReadonlyMap<string, number>;
}

/**
 * Every source's segment, held in memory and kept in step with the database
 * by `refresh` (called after this connection writes, and by a timer or the
 * server's change watcher for other connections' commits), never by a search:
 * a refresh reloads only the segments whose generation changed, from one
 * consistent snapshot, and swaps the new state in at once. Term ids are
 * interned in one dictionary; when a refresh drops or replaces segments, the
 * dictionary is rebuilt from the terms still in use, so it does not only grow.
 */
export function makeSegmentStore(db: Database.Database) {
  const dataVersion = db.prepare(`PRAGMA data_version`).pluck();
  const generations = db.prepare(`SELECT source_id AS sourceId, generation FROM segment`);
  const row = db.prepare(
    `SELECT source_id AS sourceId, generation, docs, tokens, terms, rowids, lengths, starts, postings, freqs, masks FROM segment WHERE source_id = ?`,
  );
  let state: Loaded | null = null;
  let version = -1;

  const load = (r: SegmentRow, dictionary: Map<string, number>): LoadedSegment => {
    const terms = r.terms ? r.terms.split("\n") : [];
    const intern = (term: string) => {
      let id = dictionary.get(term);
      if (id === undefined) dictionary.set(term, (id = dictionary.size));
      return id;
    };
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
      weights: packWeights(r.freqs, r.masks),
    };
  };

  const reload = db.transaction((): Loaded & { changed: string[] } => {
    const live = new Map((generations.all() as Array<{ sourceId: string; generation: number }>).map((l) => [l.sourceId, l.generation]));
    const before = state?.segments ?? new Map<string, LoadedSegment>();
    let kept = [...before.values()].filter((s) => live.get(s.sourceId) === s.generation);
    // New terms are added in place (ids already handed out stay valid); a compaction builds a new dictionary.
    let dictionary = (state?.dictionary as Map<string, number> | undefined) ?? new Map<string, number>();
    if (kept.length < before.size) ({ dictionary, kept } = compact(dictionary, kept));
    const segments = new Map(kept.map((s) => [s.sourceId, s]));
    const changed = [...live.keys()].filter((id) => !segments.has(id));
    for (const sourceId of changed) segments.set(sourceId, load(row.get(sourceId) as SegmentRow, dictionary));
    return { segments, dictionary, changed };
  });

  /** What a refresh reloaded: the sources loaded anew, and every live source (the rest are gone). Null: nothing had changed. */
  const refresh = (force: boolean): { changed: string[]; live: ReadonlySet<string> } | null => {
    const v = dataVersion.get() as number;
    if (!force && state && v === version) return null;
    const { changed, ...next } = reload();
    state = next;
    version = v;
    return { changed, live: new Set(next.segments.keys()) };
  };

  return {
    /** The segments as last refreshed, by source id, and their dictionary (loaded on first use if never refreshed). */
    current(): Loaded {
      if (!state) refresh(true);
      return state!;
    },
    /** Reloads what other connections committed since the last refresh. */
    refresh: () => refresh(false),
    /** This connection wrote: SQLite's data_version only counts other connections' commits. */
    refreshAfterWrite: () => refresh(true),
  };
}

/**
 * The dictionary reduced to the terms the kept segments use, ids given in
 * their old order (so every segment's sorted ids stay sorted), and the
 * segments with their ids renumbered.
 */
function compact(dictionary: ReadonlyMap<string, number>, kept: readonly LoadedSegment[]) {
  const used = new Uint8Array(dictionary.size);
  for (const s of kept) for (const id of s.ids) used[id] = 1;
  const renumber = new Int32Array(dictionary.size);
  const next = new Map<string, number>();
  // A Map iterates in insertion order, and ids were handed out in that order.
  for (const [term, id] of dictionary) {
    if (!used[id]) continue;
    renumber[id] = next.size;
    next.set(term, next.size);
  }
  return { dictionary: next, kept: kept.map((s) => ({ ...s, ids: s.ids.map((id) => renumber[id]!) })) };
}
