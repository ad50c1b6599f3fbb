import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { pageOf, startTestServer, type TestServer, tempDir } from "./support/test-server.ts";

const page = (title: string, text: string) => `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

/** Multi-turn questions are resolved against the conversation. */
describe("follow-up questions", () => {
  let server: TestServer;
  let id: string;
  beforeAll(async () => {
    server = await startTestServer();
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "sql-createindex.html"), page("CREATE INDEX", "CREATE INDEX constructs an index on the specified column of a table."));
    fs.writeFileSync(path.join(dir, "sql-dropindex.html"), page("DROP INDEX", "DROP INDEX removes an existing index from the database system."));
    fs.writeFileSync(
      path.join(dir, "sql-createtable.html"),
      page("CREATE TABLE", "CREATE TABLE will create a new, initially empty table in the current database."),
    );
    fs.writeFileSync(
      path.join(dir, "sql-droptable.html"),
      page("DROP TABLE", "DROP TABLE removes tables from the database. Only the table owner can drop a table."),
    );
    id = (await ingestDocuments(server.services, { name: "SQL", baseUrl: "https://sql.example/", origin: dir, documents: listDocuments(dir) })).source.id;
    const py = tempDir();
    fs.writeFileSync(
      path.join(py, "os-path.html"),
      page(
        "os.path — Common pathname manipulations",
        "os.path.exists(path) returns True if path refers to an existing file or directory, so a program can check before opening it.",
      ),
    );
    fs.writeFileSync(
      path.join(py, "functions.html"),
      page("Built-in Functions", "open(file) opens a file and returns a file object; it raises FileNotFoundError if the file is missing."),
    );
    await ingestDocuments(server.services, { name: "Python", baseUrl: "https://py.example/", origin: py, documents: listDocuments(py) });
  });
  afterAll(() => server.close());

  it('retrieves "and how do I drop it?" for the subject of the previous question', async () => {
    const ask = async (messages: object[]) =>
      (
        (await (
          await fetch(`${server.url}/v1/chat/completions`, {
            method: "POST",
            headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
            body: JSON.stringify({ model: "agent", messages, sources: [id] }),
          })
        ).json()) as { url_references: string[] }
      ).url_references.map(pageOf);
    const aboutIndexes = await ask([
      { role: "user", content: "How do I create an index?" },
      { role: "assistant", content: "Use CREATE INDEX [1]." },
      { role: "user", content: "and how do I drop it?" },
    ]);
    expect(aboutIndexes[0]).toBe("https://sql.example/sql-dropindex.html");
    const aboutTables = await ask([
      { role: "user", content: "How do I create a table?" },
      { role: "assistant", content: "Use CREATE TABLE [1]." },
      { role: "user", content: "and how do I drop it?" },
    ]);
    expect(aboutTables[0]).toBe("https://sql.example/sql-droptable.html");
  });

  it("asks a new question with a subject of its own alone, pronouns and all", async () => {
    const body = (await (
      await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: "agent",
          messages: [
            { role: "user", content: "How do I create an index on a table in SQL?" },
            { role: "assistant", content: "Use CREATE INDEX [1]." },
            // It names Python, which the index question did not: a new subject, its `that` and `it` its own.
            { role: "user", content: "How can I check that a file exists before opening it in Python?" },
          ],
        }),
      })
    ).json()) as { url_references: string[] };
    expect(body.url_references.length).toBeGreaterThan(0);
    expect(body.url_references.map(pageOf).filter((url) => !url?.startsWith("https://py.example/"))).toEqual([]);
  });
});
