import { describe, expect, it } from "vitest";
import { LITE, PG, type RetrieverSetup, seededIndex } from "../retriever.contract.ts";

/**
 * What the embedded index promises beyond the retriever port's contract: it
 * searches by the analyzer's Porter stems (so "reordering tables" finds
 * "reorder a table"), and weighs each term by its document frequency (BM25's
 * idf, also the weight coverage is judged by). Weaviate searches words as its
 * own tokenizer reads them and exposes no frequencies, so it runs the port's
 * contract only.
 */
export function embeddedRetrieverChecks(name: string, setup: RetrieverSetup) {
  describe(`Embedded retriever checks: ${name}`, () => {
    it("weighs a rare word above a common one, by document frequency", async () => {
      const { retrieve, cleanup } = await seededIndex(setup);
      const { terms } = await retrieve({ query: "How do I physically reorder a table according to an index?", limit: 5 });
      await cleanup?.();
      const weight = (word: string) => terms.find((t) => t.text === word)!.weight;
      expect(weight("reorder")).toBeGreaterThan(weight("table"));
      // In an index this small, a word no passage holds weighs as much as the rarest one held (its absence says little).
      expect(weight("according")).toBeCloseTo(Math.max(...terms.filter((t) => t.text !== "according").map((t) => t.weight)), 9);
    });

    it("counts each term's share of the index's words, none for a word no passage holds", async () => {
      const { retrieve, cleanup } = await seededIndex(setup);
      const all = (await retrieve({ query: "reorder table weekend", limit: 5 })).terms;
      const one = (await retrieve({ query: "reorder table weekend", sourceIds: [LITE], limit: 5 })).terms;
      await cleanup?.();
      // Of the whole index, as the weights are: SQLite's pages never say "reorder", PostgreSQL's do.
      expect(one).toEqual(all);
      const share = (terms: typeof all, word: string) => terms.find((t) => t.text === word)!.share!;
      expect(share(all, "table")).toBeGreaterThan(share(all, "reorder"));
      expect(share(all, "reorder")).toBeGreaterThan(0);
      expect(share(all, "weekend")).toBe(0);
      expect(share(all, "table")).toBeLessThan(1);
    });

    it("reads words over the visible sources only: a word only a hidden source holds weighs as a word none holds, and corrects no misspelling", async () => {
      const { retrieve, cleanup } = await seededIndex(setup);
      const seen = (query: string) => retrieve({ query, sourceIds: [LITE], visible: [LITE], limit: 5 });
      const hidden = (await seen("reorder table weekend")).terms;
      const everyone = (await retrieve({ query: "reorder table weekend", sourceIds: [LITE], limit: 5 })).terms;
      const misspelt = (await seen("reordr table")).terms;
      const corrected = (await retrieve({ query: "reordr table", sourceIds: [LITE], limit: 5 })).terms;
      await cleanup?.();
      const term = (terms: typeof hidden, word: string) => terms.find((t) => t.text === word)!;
      // SQLite's pages never say "reorder": seen from SQLite alone it is a word like "weekend".
      expect(term(everyone, "reorder").share).toBeGreaterThan(0);
      expect(term(hidden, "reorder").share).toBe(0);
      expect(term(hidden, "reorder").weight).toBe(term(hidden, "weekend").weight);
      expect(corrected.map((t) => t.text)).toContain("reorder");
      expect(misspelt.map((t) => t.text)).toContain("reordr");
    });

    it("searches and matches words by their Porter stems", async () => {
      const { retrieve, cleanup } = await seededIndex(setup);
      const { chunks, terms } = await retrieve({ query: "reordering tables physically", sourceIds: [PG, LITE], limit: 5 });
      await cleanup?.();
      expect(terms.map((t) => t.term)).toEqual(["reorder", "tabl", "physic"]);
      expect(chunks[0]).toMatchObject({ url: "https://pg.example/sql-cluster.html" });
      expect([...chunks[0]!.matched].sort()).toEqual(["physic", "reorder", "tabl"]);
    });
  });
}
