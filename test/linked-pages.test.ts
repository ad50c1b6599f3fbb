import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { pageOf, startTestServer, type TestServer, tempDir } from "./support/test-server.ts";

const page = (title: string, body: string) => `<html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

/** A page the best pages link to, in the question's words, is referenced ahead of pages that only share its words. */
describe("pages the best pages link to", () => {
  let server: TestServer;
  let id: string;
  beforeAll(async () => {
    server = await startTestServer({ MAX_REFERENCES: "3" });
    const dir = tempDir();
    const write = (file: string, title: string, body: string) => fs.writeFileSync(path.join(dir, file), page(title, body));
    write(
      "indexes-unique.html",
      "Unique Indexes",
      `<p>A unique index can cover only some rows of a table: see <a href="indexes-partial.html#intro" title="Partial Indexes">Section 8</a>. Other rows are not checked.</p>`,
    );
    write(
      "indexes-covering.html",
      "Covering Indexes",
      `<p>A covering index holds every column a query needs, so the rows come from the index alone. See <a href="vacuum.html">VACUUM</a>.</p>`,
    );
    write("row-estimation.html", "Row Estimation", `<p>The planner estimates how many rows an index scan returns.</p>`);
    write(
      "indexes-partial.html",
      "Partial Indexes",
      `<p id="intro">A partial index is built over a subset of a table; its entries are the rows that satisfy its predicate.</p>`,
    );
    const filler = ["vacuum", "backup", "replication", "roles", "locks", "triggers", "views", "sequences", "schemas", "extensions"];
    for (const name of filler)
      write(`${name}.html`, name, `<p>The ${name} chapter explains ${name} for administrators, with examples of ${name} in daily operation.</p>`);
    id = (await ingestDocuments(server.services, { name: "Manual", baseUrl: "https://manual.example/", origin: dir, documents: listDocuments(dir) })).source.id;
  });
  afterAll(() => server.close());

  it("references a linked page over a page that shares more of the question's words", async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: "Can an index cover only some rows?" }], sources: [id] }),
    });
    const references = ((await response.json()) as { url_references: string[] }).url_references.map(pageOf);
    expect(references).toHaveLength(3);
    // Row Estimation shares as many of the question's words, in a shorter text; Unique Indexes points at Partial Indexes.
    expect(references).toContain("https://manual.example/indexes-partial.html");
    expect(references).not.toContain("https://manual.example/row-estimation.html");
    // The covering index's link to VACUUM names none of the question's words: it vouches for nothing.
    expect(references).not.toContain("https://manual.example/vacuum.html");
  });
});
