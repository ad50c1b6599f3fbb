import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { retrieverContract } from "../retriever.contract.ts";
import { openSqliteIndex } from "./sqlite-index.ts";
import { buildMatch, queryWords } from "./fts-query.ts";

const tempFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "docent-index-")), "index.db");

retrieverContract("embedded SQLite FTS5", async () => {
  const index = openSqliteIndex(tempFile());
  return { retrieve: index.retrieve, writer: index.writer, cleanup: async () => index.close() };
});

describe("embedded index on disk", () => {
  it("serves what another connection committed, as a second process would", async () => {
    const file = tempFile();
    const server = openSqliteIndex(file);
    const cli = openSqliteIndex(file);
    const id = "11111111-2222-4333-8444-555555555555";
    expect((await server.retrieve({ query: "sharding", limit: 5 })).chunks).toEqual([]);
    await cli.writer.replaceSource(id, [{ url: "https://x/a.html", hash: "h", chunks: [{ sourceId: id, url: "https://x/a.html", anchor: "", title: "Sharding", section: "", text: "Sharding splits data." }] }]);
    expect((await server.retrieve({ query: "sharding", limit: 5 })).chunks.map((h) => h.url)).toEqual(["https://x/a.html"]);
    cli.close();
    server.close();
  });
});

describe("fts query building", () => {
  it("drops stop words and splits words as the index does", () => {
    expect(queryWords("How do I create an index in Node.js?")).toEqual(["create", "index", "node", "js"]);
    expect(queryWords('what is "quoted" OR NEAR')).toEqual(["quoted", "near"]);
  });

  it("quotes every term and puts the source filter inside the match expression", () => {
    expect(buildMatch(["quoted", "near"])).toBe('{title section body idents} : ("quoted" OR "near")');
    expect(buildMatch(["vacuum"], ["0B5E5A3E-8A4C-4C1E-9A51-0C1A2B3C4D5E"])).toBe(
      '({title section body idents} : ("vacuum")) AND (src : ("s0b5e5a3e8a4c4c1e9a510c1a2b3c4d5e"))',
    );
    expect(buildMatch([])).toBeNull();
  });

  it("selects candidates by the telling words and ranks them by all", () => {
    expect(buildMatch(["reorder", "table"], undefined, ["reorder"])).toBe(
      '({title section body idents} : ("reorder")) AND ({title section body idents} : ("reorder" OR "table"))',
    );
  });
});
