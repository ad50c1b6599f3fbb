import type { TextAnalyzer } from "../../core/text-analyzer.ts";
import { identifierParts } from "./identifier-parts.ts";

/**
 * One source's inverted index, built in memory at ingestion and stored as a
 * row of blobs: for every term, the passages holding it (ascending), a
 * weighted term frequency, and which fields hold it. Weights follow the
 * ranking: title 4, section 2, body 1, identifier parts 1.
 */
export const FIELD = { title: 1, heading: 2, text: 4 } as const;

/** Segments of up to this many passages number them in 16 bits. */
export const MAX_16_BIT_DOCS = 0x10000;

export interface SegmentInput {
  id: number;
  url: string;
  title: string;
  section: string;
  text: string;
}

export interface SegmentData {
  /** Chunk row ids, by passage number. */
  rowids: Float64Array;
  /** Weighted-field token count per passage (the BM25 document length). */
  lengths: Uint32Array;
  /** Sorted, distinct terms. */
  terms: string[];
  /** Postings of terms[i] are [starts[i], starts[i + 1]): passage numbers (16-bit when they fit), frequencies, field bits. */
  starts: Uint32Array;
  docs: Uint16Array | Uint32Array;
  freqs: Uint8Array;
  masks: Uint8Array;
}

const pageName = (url: string) =>
  url
    .slice(url.lastIndexOf("/") + 1)
    .replace(/[?#].*$/, "")
    .replace(/\.[a-z]+$/i, "");

export function buildSegment(chunks: readonly SegmentInput[], analyzer: TextAnalyzer): SegmentData {
  const postings = new Map<string, number[]>();
  const lengths = new Uint32Array(chunks.length);
  const rowids = new Float64Array(chunks.length);
  chunks.forEach((chunk, doc) => {
    const local = new Map<string, number>(); // term → freq << 3 | mask
    let length = 0;
    const add = (text: string, weight: number, bit: number) => {
      for (const word of analyzer.words(text)) {
        const term = analyzer.term(word);
        if (weight > 0) length++;
        local.set(term, ((local.get(term) ?? 0) + (weight << 3)) | bit);
      }
    };
    add(chunk.title, 4, FIELD.title);
    add(chunk.section, 2, FIELD.heading);
    add(chunk.text, 1, FIELD.text);
    add(identifierParts(`${chunk.title} ${chunk.section} ${chunk.text}`), 1, FIELD.text);
    // Matched, not scored: the page's file name counts as title, identifier parts of headings as heading.
    add(pageName(chunk.url), 0, FIELD.title);
    add(identifierParts(chunk.section), 0, FIELD.heading);
    rowids[doc] = chunk.id;
    lengths[doc] = length;
    for (const [term, packed] of local) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push(doc, packed);
    }
  });
  const terms = [...postings.keys()].sort();
  const total = terms.reduce((n, t) => n + postings.get(t)!.length / 2, 0);
  const starts = new Uint32Array(terms.length + 1);
  const docs = chunks.length <= MAX_16_BIT_DOCS ? new Uint16Array(total) : new Uint32Array(total);
  const freqs = new Uint8Array(total);
  const masks = new Uint8Array(total);
  let at = 0;
  terms.forEach((term, i) => {
    starts[i] = at;
    const list = postings.get(term)!;
    for (let j = 0; j < list.length; j += 2, at++) {
      docs[at] = list[j]!;
      // Saturated long before 255 (BM25's k1), so a byte holds it.
      freqs[at] = Math.min(0xff, list[j + 1]! >>> 3);
      masks[at] = list[j + 1]! & 7;
    }
  });
  starts[terms.length] = at;
  return { rowids, lengths, terms, starts, docs, freqs, masks };
}

/** Column values of the `segment` table row (see sqlite-index.ts). */
export function segmentRow(data: SegmentData) {
  const blob = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return {
    docs: data.rowids.length,
    tokens: data.lengths.reduce((n, l) => n + l, 0),
    terms: data.terms.join("\n"),
    rowids: blob(data.rowids),
    lengths: blob(data.lengths),
    starts: blob(data.starts),
    postings: blob(data.docs),
    freqs: blob(data.freqs),
    masks: blob(data.masks),
  };
}

/**
 * A stored blob as a typed array: a view of the blob's own memory when it is
 * aligned (better-sqlite3 gives each blob its own buffer), else a copy. Not
 * copying keeps a ×10 index's load from holding its postings twice.
 */
export function typed<T>(blob: Buffer, make: { new (buffer: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number }): T {
  const size = make.BYTES_PER_ELEMENT;
  if (blob.byteOffset % size === 0 && blob.byteLength % size === 0) return new make(blob.buffer as ArrayBuffer, blob.byteOffset, blob.byteLength / size);
  const copy = blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength) as ArrayBuffer;
  return new make(copy, 0, copy.byteLength / size);
}
