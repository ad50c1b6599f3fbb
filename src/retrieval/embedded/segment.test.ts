import { describe, expect, it } from "vitest";
import { englishAnalyzer } from "../../text/english-analyzer.ts";
import { buildSegment, FIELD } from "./segment.ts";
import { MAX_PACKED_FREQ, packedFreq, packedMask, packWeights } from "./segment-store.ts";

describe("buildSegment", () => {
  const segment = buildSegment(
    [
      {
        id: 7,
        url: "https://x/lang_vacuum.html",
        title: "VACUUM",
        section: "How VACUUM works",
        text: "The VACUUM command rebuilds the database file. Vacuuming repacks it.",
      },
      { id: 9, url: "https://x/pragma.html", title: "Pragmas", section: "auto_vacuum", text: "Use readFileSync? No: set auto_vacuum before creating tables." },
    ],
    englishAnalyzer,
  );
  const postings = (term: string) => {
    const i = segment.terms.indexOf(term);
    if (i < 0) return [];
    return Array.from({ length: segment.starts[i + 1]! - segment.starts[i]! }, (_, k) => {
      const p = segment.starts[i]! + k;
      return { doc: segment.docs[p], freq: segment.freqs[p], mask: segment.masks[p] };
    });
  };

  it("keeps sorted, stemmed terms with passages in order", () => {
    expect(segment.terms).toEqual([...segment.terms].sort());
    expect(Array.from(segment.rowids)).toEqual([7, 9]);
    // "VACUUM" in the title (4), the heading (2), the body (1, and "Vacuuming" stems alike: 1) and,
    // as an all-capitals code word, among the identifier parts (1).
    expect(postings("vacuum")).toEqual([
      { doc: 0, freq: 4 + 2 + 2 + 1, mask: FIELD.title | FIELD.heading | FIELD.text },
      { doc: 1, freq: 2 + 1, mask: FIELD.heading | FIELD.text },
    ]);
  });

  it("marks the page's file name as title and identifier parts of code as text, without scoring the file name", () => {
    expect(postings("lang")).toEqual([{ doc: 0, freq: 0, mask: FIELD.title }]);
    expect(postings("read")).toEqual([{ doc: 1, freq: 1, mask: FIELD.text }]);
    expect(postings("readfilesync")).toEqual([{ doc: 1, freq: 1, mask: FIELD.text }]);
  });

  it("measures passage length over the scored fields", () => {
    // title 1 + section 3 + body 10 words + 1 identifier part ("vacuum"); the file name is not counted.
    expect(segment.lengths[0]).toBe(1 + 3 + 10 + 1);
  });
});

describe("packWeights", () => {
  it("keeps every posting's field bits and its frequency up to the cap", () => {
    const freqs = Uint8Array.from([0, 1, 9, 31, 32, 255]);
    const masks = Uint8Array.from([FIELD.title, FIELD.text, FIELD.title | FIELD.heading | FIELD.text, FIELD.heading, FIELD.text, FIELD.title | FIELD.text]);
    const weights = packWeights(freqs, masks);
    expect(Array.from(weights, packedMask)).toEqual(Array.from(masks));
    expect(Array.from(weights, packedFreq)).toEqual([0, 1, 9, 31, MAX_PACKED_FREQ, MAX_PACKED_FREQ]);
  });
});
