import { type LoadedSegment, packedFreq, packedMask, postingsOf } from "./segment-store.ts";

/** BM25 after SQLite FTS5's bm25(): weighted term frequency, whole-passage length, IDF floored at 1e-6. */
const K1 = 1.2;
const B = 0.75;

export interface SearchTerm {
  /** Interned term id (undefined: no passage holds the term). */
  id: number | undefined;
  /** Candidates must hold at least one selecting term; the others only add to their score. */
  selects: boolean;
  /** Multiplies the term's IDF (default 1). */
  scale?: number;
  /** FIELD bits: only passages holding the term in one of these fields count it (default: any field). */
  fields?: number;
}

export interface Hit {
  segment: LoadedSegment;
  doc: number;
  score: number;
  /** Per query term, the fields (FIELD bits) of this passage that hold it; 0 when none. */
  masks: number[];
}

let scores = new Float64Array(1024);
let touched = new Uint32Array(1024);

/**
 * The `limit` best passages of the given segments for the query terms, with
 * document frequencies and average length taken over those segments (so a
 * search of one source ranks as that source alone would).
 */
export function searchSegments(scope: readonly LoadedSegment[], terms: readonly SearchTerm[], limit: number): Hit[] {
  let n = 0;
  let tokens = 0;
  for (const s of scope) {
    n += s.n;
    tokens += s.tokens;
  }
  if (n === 0 || limit <= 0) return [];
  const avgdl = tokens / n;
  const ranges = scope.map((s) => terms.map((t) => (t.id === undefined ? null : postingsOf(s, t.id))));
  const idf = terms.map((_, i) => {
    let df = 0;
    for (const r of ranges) if (r[i]) df += r[i]![1] - r[i]![0];
    return (terms[i]!.scale ?? 1) * Math.max(1e-6, Math.log((n - df + 0.5) / (df + 0.5)));
  });
  const order = terms.map((_, i) => i).sort((a, b) => Number(terms[b]!.selects) - Number(terms[a]!.selects));
  const heap = new TopK(limit);

  scope.forEach((s, si) => {
    if (scores.length < s.n) {
      scores = new Float64Array(s.n * 2);
      touched = new Uint32Array(s.n * 2);
    }
    let count = 0;
    for (const i of order) {
      const range = ranges[si]![i];
      if (!range) continue;
      const w = idf[i]!;
      const { selects, fields = 0 } = terms[i]!;
      for (let p = range[0]; p < range[1]; p++) {
        const weight = s.weights[p]!;
        const f = packedFreq(weight);
        if (f === 0 || (fields !== 0 && (packedMask(weight) & fields) === 0)) continue;
        const d = s.docs[p]!;
        const before = scores[d]!;
        if (before === 0) {
          if (!selects) continue;
          touched[count++] = d;
        }
        scores[d] = before + (w * f * (K1 + 1)) / (f + K1 * (1 - B + (B * s.lengths[d]!) / avgdl));
      }
    }
    for (let k = 0; k < count; k++) {
      const d = touched[k]!;
      heap.offer(scores[d]!, si, d);
      scores[d] = 0;
    }
  });

  return heap.sorted().map(({ score, group, doc }) => {
    const segment = scope[group]!;
    const masks = ranges[group]!.map((range) => (range ? maskAt(segment, range, doc) : 0));
    return { segment, doc, score, masks };
  });
}

function maskAt(s: LoadedSegment, [lo, hi]: [number, number], doc: number): number {
  hi -= 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const d = s.docs[mid]!;
    if (d === doc) return packedMask(s.weights[mid]!);
    if (d < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** A bounded min-heap keeping the `limit` highest scores. */
class TopK {
  private items: Array<{ score: number; group: number; doc: number }> = [];
  constructor(private readonly limit: number) {}

  offer(score: number, group: number, doc: number) {
    const items = this.items;
    if (items.length < this.limit) {
      items.push({ score, group, doc });
      let i = items.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (items[parent]!.score <= items[i]!.score) break;
        [items[parent], items[i]] = [items[i]!, items[parent]!];
        i = parent;
      }
      return;
    }
    if (score <= items[0]!.score) return;
    items[0] = { score, group, doc };
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && items[l]!.score < items[m]!.score) m = l;
      if (r < items.length && items[r]!.score < items[m]!.score) m = r;
      if (m === i) break;
      [items[m], items[i]] = [items[i]!, items[m]!];
      i = m;
    }
  }

  sorted() {
    return [...this.items].sort((a, b) => b.score - a.score);
  }
}
