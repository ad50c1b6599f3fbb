import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { queryWords } from "../../core/text-analyzer.ts";
import { englishAnalyzer } from "../../text/english-analyzer.ts";
import { retrieverContract } from "../retriever.contract.ts";
import { embeddedRetrieverChecks } from "./embedded-retriever.checks.ts";
import { SCHEMA_VERSION } from "./index-schema.ts";
import { openSqliteIndex } from "./sqlite-index.ts";

const ID = "11111111-2222-4333-8444-555555555555";
const tempFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "docent-index-")), "index.db");

const embedded = async () => {
  const index = openSqliteIndex(tempFile());
  return { retrieve: index.retrieve, writer: index.writer, readPage: index.readPage, cleanup: async () => index.close() };
};
retrieverContract("embedded SQLite index", embedded);
embeddedRetrieverChecks("embedded SQLite index", embedded);

describe("embedded index on disk", () => {
  const page = (id: string, url: string, title: string, text: string) => ({
    url,
    hash: url,
    chunks: [{ sourceId: id, url, anchor: "", title, section: "", text }],
  });
  const urls = async (index: ReturnType<typeof openSqliteIndex>, query: string) => (await index.retrieve({ query, limit: 5 })).chunks.map((h) => h.url);

  it("in a large index, weighs an English word no passage holds above every held word, and a non-word as the rarest held", async () => {
    const index = openSqliteIndex(tempFile());
    const topics = ["vacuum", "index", "table", "column", "trigger", "view", "schema", "backup"];
    const pages = Array.from({ length: 2000 }, (_, i) =>
      page(ID, `https://x/${i}.html`, `Page ${i}`, `How the ${topics[i % topics.length]} works, part ${i}, with a ${topics[(i * 3) % topics.length]}.`),
    );
    await index.writer.replaceSource(ID, pages);
    const { terms } = await index.retrieve({ query: "vacuum a table about cheetahs or qzxwv", limit: 5 });
    index.close();
    const weight = (word: string) => terms.find((t) => t.text === word)!.weight;
    // A plain word of English that 2,000 passages never use says the question is about something else.
    expect(weight("cheetahs")).toBeCloseTo(Math.log(1 + 2000.5 / 0.5), 9);
    expect(weight("cheetahs")).toBeGreaterThan(weight("vacuum") + 2);
    // A non-word (a typo spelling could not fix, an identifier) weighs no more than the rarest word held.
    expect(weight("qzxwv")).toBeCloseTo(Math.max(weight("vacuum"), weight("table")), 9);
  });

  /** The first page found for a question among 16 filler pages and the given ones (`name` → `https://x/name.html`). */
  const firstFor = async (pages: Record<string, string>, question: string) => {
    const index = openSqliteIndex(tempFile());
    const filler = Array.from({ length: 16 }, (_, i) => page(ID, `https://x/f${i}.html`, `Page f${i}`, `Notes on topic ${i} and its settings.`));
    await index.writer.replaceSource(ID, [...filler, ...Object.entries(pages).map(([name, text]) => page(ID, `https://x/${name}.html`, `Page ${name}`, text))]);
    const [first] = await urls(index, question);
    index.close();
    return first?.slice("https://x/".length, -".html".length);
  };

  it("ranks by what a question says again and again, not by the one rare word of its story", async () => {
    const setting = (name: string) => `A ${name} setting changes how a connection behaves here.`;
    const pages = { wrapper: "A wrapper library adds helpers around the core calls.", connection: "Each connection has a state of its own." };
    // "wrapper" is rarer (one passage) than "connection" (four), but the question is about its connection.
    const question = "My connection is slow, each connection goes through a wrapper: why is the connection slow?";
    expect(await firstFor({ ...pages, pool: setting("pool"), timeout: setting("timeout"), proxy: setting("proxy") }, question)).toBe("connection");
  });

  it("does not count what the caller's pasted code repeats as what the question is about", async () => {
    const runs = (name: string) => `How a function runs ${name} between calls.`;
    const pages = {
      bucket: "A bucket holds the objects you upload.",
      defaults: "A default value is made once, when the function is defined, and later calls share it.",
      hooks: runs("hooks"),
      signals: runs("signals"),
      loops: runs("loops"),
    };
    // `bucket` is said three times, two of them in code; the question's own words ask why calls share a default.
    expect(await firstFor(pages, "Why do calls share a default? def add(item, bucket=[]): bucket.append(item); return bucket")).toBe("defaults");
  });

  it("counts a hostile question's words in one pass: 100,000 characters of repeats, quotes and look-alike words", async () => {
    const setting = (name: string) => `A ${name} setting changes how a connection behaves here.`;
    const pages = {
      connection: "Each connection has a state of its own.",
      wrapper: "A wrapper library adds helpers around the core calls.",
      pool: setting("pool"),
      proxy: setting("proxy"),
    };
    const lookAlikes = Array.from({ length: 11_000 }, (_, i) => `co${i.toString(36).replace(/\d/g, "x")}`).join(" ");
    const question = `wrapper ${"connection ".repeat(2_000)}${"'a ".repeat(5_000)}${lookAlikes}`.slice(0, 100_000);
    expect(question).toHaveLength(100_000);
    const started = performance.now();
    // Said 2,000 times, "connection" (three passages) leads "wrapper" (one); reading the text stays linear (a loose bound, far above the ~0.1 s it takes).
    expect(await firstFor(pages, question)).toBe("connection");
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("still searches a word the question says only in its code", async () => {
    const pages = { connect: "Open a connection to the server.", early: "A call may return early." };
    expect(await firstFor(pages, "What does open_connection() return?")).toBe("connect");
  });

  it("serves what another connection committed once it refreshes, as a server sees a CLI's ingest", async () => {
    const file = tempFile();
    const server = openSqliteIndex(file, { preload: true });
    const cli = openSqliteIndex(file);
    expect(await urls(server, "sharding")).toEqual([]);
    await cli.writer.replaceSource(ID, [page(ID, "https://x/a.html", "Sharding", "Sharding splits data.")]);
    // A search never reloads: the old state serves until the refresh swaps the new one in.
    expect(await urls(server, "sharding")).toEqual([]);
    server.refresh();
    expect(await urls(server, "sharding")).toEqual(["https://x/a.html"]);
    cli.close();
    server.close();
  });

  it("never reads another passage in a stale segment's place: a row id is not reused after another connection's sync", async () => {
    const file = tempFile();
    const server = openSqliteIndex(file, { preload: true });
    const cli = openSqliteIndex(file);
    const hits = async (query: string) => (await server.retrieve({ query, limit: 5 })).chunks.map((h) => [h.url, h.text]);
    await server.writer.replaceSource(ID, [
      page(ID, "https://x/a.html", "Sharding", "Sharding splits data."),
      page(ID, "https://x/b.html", "Widget 2", "The widget frobnicator controls zorbling."),
    ]);
    // Another process replaces the source (deleting its rows, the highest row ids, and adding rows again).
    await cli.writer.replaceSource(ID, [
      page(ID, "https://x/c.html", "Gadget", "The gadget frobnicator sets the pace."),
      page(ID, "https://x/a.html", "Sharding", "Sharding splits data."),
      page(ID, "https://x/b.html", "Widget 2", "The widget frobnicator controls blooping."),
    ]);
    // Until it refreshes, the server's segment still points at the old rows: gone, so not found; never the new ones.
    for (const query of ["sharding", "frobnicator zorbling"]) {
      for (const [url, text] of await hits(query)) expect(text, `${query}: ${url}`).not.toMatch(/gadget|blooping/);
    }
    server.refresh();
    expect((await hits("frobnicator blooping"))[0]).toEqual(["https://x/b.html", "The widget frobnicator controls blooping."]);
    cli.close();
    server.close();
  });

  it("refuses an index written by a newer docent rather than dropping it as an unknown version", async () => {
    const file = tempFile();
    const index = openSqliteIndex(file);
    await index.writer.replaceSource(ID, [page(ID, "https://x/a.html", "Sharding", "Sharding splits data.")]);
    index.close();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openSqliteIndex(file)).toThrow(/written by a newer docent/);
    expect(new Database(file).prepare("SELECT count(*) FROM chunk").pluck().get()).toBe(1);
  });

  it("upgrades a version 7 index, whose row ids could be reused, keeping its passages and their ids", async () => {
    const file = tempFile();
    const old = new Database(file);
    old.exec(`CREATE TABLE chunk (id INTEGER PRIMARY KEY, source_id TEXT NOT NULL, url TEXT NOT NULL, anchor TEXT NOT NULL,
      title TEXT NOT NULL, section TEXT NOT NULL, body TEXT NOT NULL, links TEXT NOT NULL DEFAULT '', spans TEXT NOT NULL DEFAULT '');
      INSERT INTO chunk (id, source_id, url, anchor, title, section, body) VALUES (41, '${ID}', 'https://x/a.html', '', 'Sharding', '', 'Sharding splits data.');`);
    old.pragma("user_version = 7");
    old.close();
    const index = openSqliteIndex(file);
    index.close();
    const db = new Database(file);
    expect(db.prepare("SELECT id, body FROM chunk").all()).toEqual([{ id: 41, body: "Sharding splits data." }]);
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunk'").pluck().get()).toMatch(/AUTOINCREMENT/);
    db.prepare("DELETE FROM chunk WHERE id = 41").run();
    expect(db.prepare(`INSERT INTO chunk (source_id, url, anchor, title, section, body) VALUES ('${ID}', 'u', '', '', '', 'x')`).run().lastInsertRowid).toBe(
      42,
    );
    db.close();
  });

  it("searches another connection's embeddings once it refreshes, never reading them during a search", async () => {
    const file = tempFile();
    const server = openSqliteIndex(file, { preload: true });
    const cli = openSqliteIndex(file);
    const unit = (x: number, y: number) => new Float32Array([x, y].map((v) => v / Math.hypot(x, y)));
    const withVector = (id: string, url: string, embedding: Float32Array) => ({
      url,
      hash: url,
      chunks: [{ ...page(id, url, "T", "text").chunks[0]!, embedding }],
    });
    await server.writer.replaceSource(ID, [withVector(ID, "https://x/a.html", unit(1, 0))]);
    const found = async () => (await server.vectorSearch(unit(0, 1), undefined, 5)).map((c) => c.url);
    expect(await found()).toEqual(["https://x/a.html"]);
    const other = "33333333-2222-4333-8444-555555555555";
    await cli.writer.replaceSource(other, [withVector(other, "https://y/b.html", unit(0, 1))]);
    expect(await found()).toEqual(["https://x/a.html"]);
    server.refresh();
    expect(await found()).toEqual(["https://y/b.html", "https://x/a.html"]);
    await cli.writer.removeSource(ID);
    server.refresh();
    expect(await found()).toEqual(["https://y/b.html"]);
    cli.close();
    server.close();
  });

  it("refreshes on its own every refreshMs", async () => {
    const file = tempFile();
    const server = openSqliteIndex(file, { preload: true, refreshMs: 20 });
    const cli = openSqliteIndex(file);
    await cli.writer.replaceSource(ID, [page(ID, "https://x/a.html", "Sharding", "Sharding splits data.")]);
    await expect.poll(() => urls(server, "sharding"), { timeout: 1000, interval: 10 }).toEqual(["https://x/a.html"]);
    cli.close();
    server.close();
  });

  it("rebuilds its term dictionary when sources are replaced or removed, so it holds only terms in use", async () => {
    const file = tempFile();
    const server = openSqliteIndex(file, { preload: true });
    const other = "22222222-2222-4333-8444-555555555555";
    await server.writer.replaceSource(ID, [page(ID, "https://x/a.html", "Sharding", "Sharding splits data.")]);
    await server.writer.replaceSource(other, [page(other, "https://y/b.html", "Vacuum", "Vacuum reclaims space.")]);
    const before = server.stats().terms;
    await server.writer.replaceSource(ID, [page(ID, "https://x/c.html", "Replication", "Replication copies rows.")]);
    await server.writer.removeSource(other);
    expect(server.stats().terms).toBeLessThan(before);
    expect(await urls(server, "replication copies")).toEqual(["https://x/c.html"]);
    expect(await urls(server, "sharding")).toEqual([]);
    expect(await urls(server, "vacuum")).toEqual([]);
    // The remaining source's terms were renumbered with the dictionary and still find it.
    await server.writer.replaceSource(other, [page(other, "https://y/d.html", "Rows", "Rows and replication.")]);
    expect(await urls(server, "copies")).toEqual(["https://x/c.html"]);
    expect((await urls(server, "replication")).sort()).toEqual(["https://x/c.html", "https://y/d.html"]);
    server.close();
  });
});

describe("agent nouns", () => {
  const passage = (url: string, section: string, text: string) => ({
    url,
    hash: url,
    chunks: [{ sourceId: ID, url, anchor: "", title: "Collections", section, text }],
  });

  it("finds the object a heading names after the question's verb, but only as a weaker word and never on its own", async () => {
    const index = openSqliteIndex(tempFile());
    await index.writer.replaceSource(ID, [
      passage("https://x/counter.html", "Counter objects", "A dict subclass that tallies the items of an iterable."),
      passage("https://x/staff.html", "Front desk", "The counter staff hand out items to visitors."),
      passage("https://x/reception.html", "Back office", "The reception staff hand out items to visitors."),
      passage("https://x/unrelated.html", "Counter objects", "Nothing in common with the question."),
    ]);
    const { chunks, terms } = await index.retrieve({ query: "count the items", sourceIds: [ID], limit: 10 });
    index.close();
    expect(terms.map((t) => t.term)).toEqual(["count", "item"]);
    const byUrl = new Map(chunks.map((c) => [c.url.slice("https://x/".length), c]));
    // The heading "Counter objects" counts as the question's "count"…
    expect(byUrl.get("counter.html")).toMatchObject({ matched: ["count", "item"], headingMatched: ["count"] });
    // …"counter" in running text does not (it scores as any other word would)…
    expect(byUrl.get("staff.html")).toMatchObject({ matched: ["item"], headingMatched: [] });
    expect(byUrl.get("staff.html")!.score).toBeCloseTo(byUrl.get("reception.html")!.score, 9);
    expect(chunks[0]!.url).toBe("https://x/counter.html");
    // …and an agent noun alone does not make a passage a candidate.
    expect(byUrl.has("unrelated.html")).toBe(false);
  });
});

describe("misspelt question words", () => {
  it("searches a word no passage holds and English does not know as the documented word one edit away", async () => {
    const index = openSqliteIndex(tempFile());
    const page = (url: string, title: string, text: string) => ({ url, hash: url, chunks: [{ sourceId: ID, url, anchor: "", title, section: "", text }] });
    await index.writer.replaceSource(ID, [
      page("https://x/vacuum.html", "VACUUM", "VACUUM reclaims storage occupied by dead tuples."),
      page("https://x/plan.html", "EXPLAIN", "Shows the execution plan of a statement."),
    ]);
    const typo = await index.retrieve({ query: "vacum storage", sourceIds: [ID], limit: 5 });
    expect(typo.terms.map((t) => [t.text, t.term])).toEqual([
      ["vacuum", "vacuum"],
      ["storage", "storag"],
    ]);
    expect(typo.chunks[0]).toMatchObject({ url: "https://x/vacuum.html", matched: ["vacuum", "storag"] });
    // An English word the pages lack is no typo: "plant" stays "plant", it does not become "plan".
    const english = await index.retrieve({ query: "plant", sourceIds: [ID], limit: 5 });
    index.close();
    expect(english.terms.map((t) => t.text)).toEqual(["plant"]);
    expect(english.chunks).toEqual([]);
  });

  it("tries only a question's first eight unknown words, so a question of typos costs what eight cost", async () => {
    const index = openSqliteIndex(tempFile());
    const words = ["vacuum", "analyze", "reindex", "cluster", "checkpoint", "tablespace", "sequence", "trigger", "listen", "notify"];
    await index.writer.replaceSource(ID, [
      { url: "https://x/a.html", hash: "a", chunks: [{ sourceId: ID, url: "https://x/a.html", anchor: "", title: "A", section: "", text: words.join(" ") }] },
    ]);
    // Each word with its second letter dropped: none is English, each is one edit from a word of the page.
    const typos = words.map((w) => w[0] + w.slice(2));
    const found = await index.retrieve({ query: typos.join(" "), sourceIds: [ID], limit: 5 });
    index.close();
    expect(found.terms.map((t) => t.text)).toEqual([...words.slice(0, 8), ...typos.slice(8)]);
  });
});

describe("long questions", () => {
  it("reads a question told with its context to its ask, past its sixteenth word", async () => {
    const index = openSqliteIndex(tempFile());
    const page = (url: string, text: string) => ({ url, hash: url, chunks: [{ sourceId: ID, url, anchor: "", title: "", section: "", text }] });
    await index.writer.replaceSource(ID, [page("https://x/series.html", "generate_series produces a row per day between two dates.")]);
    const story =
      "our finance team exports monthly sales figures into spreadsheets every quarter and complains whenever weekends holidays " +
      "or quiet stretches leave gaps in charts they print for board meetings. how do I generate_series a row per day?";
    const found = await index.retrieve({ query: story, sourceIds: [ID], limit: 5 });
    index.close();
    expect(found.terms.map((t) => t.text)).toContain("series");
    expect(found.chunks[0]?.url).toBe("https://x/series.html");
  });
});

describe("embeddings in the embedded index", () => {
  it("finds by vector what this same connection wrote after its first vector search", async () => {
    const index = openSqliteIndex(tempFile());
    const unit = (i: number) => Float32Array.from({ length: 4 }, (_, d) => (d === i ? 1 : 0));
    const page = (url: string, text: string, embedding: Float32Array) => ({
      url,
      hash: url,
      chunks: [{ sourceId: ID, url, anchor: "", title: text, section: "", text, embedding }],
    });
    await index.writer.replaceSource(ID, [page("https://x/a.html", "first", unit(0))]);
    expect((await index.vectorSearch(unit(0), [ID], 1)).map((c) => c.url)).toEqual(["https://x/a.html"]);
    await index.writer.replaceSource(ID, [page("https://x/b.html", "second", unit(1))]);
    const after = await index.vectorSearch(unit(1), [ID], 5);
    index.close();
    expect(after.map((c) => c.url)).toEqual(["https://x/b.html"]);
    // Scored by b's own vector (a stale copy of a's, under a reused row id, would score 0).
    expect(after[0]!.score).toBeCloseTo(1);
  });
});

describe("large sources", () => {
  it("numbers the passages of a source with more than 65,536 of them in 32 bits, and finds the last one", async () => {
    const index = openSqliteIndex(tempFile());
    const chunks = Array.from({ length: 70_000 }, (_, i) => ({
      sourceId: ID,
      url: "https://x/big.html",
      anchor: `p${i}`,
      title: "Big",
      section: "",
      text: `passage number w${i}`,
    }));
    await index.writer.replaceSource(ID, [{ url: "https://x/big.html", hash: "h", chunks }]);
    const { chunks: found } = await index.retrieve({ query: "w69999", sourceIds: [ID], limit: 5 });
    index.close();
    expect(found.map((c) => c.anchor)).toEqual(["p69999"]);
  }, 30_000);
});

describe("index schema upgrade", () => {
  it("keeps the passages of a version-4 (FTS5) index and searches them", async () => {
    const file = tempFile();
    const old = new Database(file);
    old.exec(`
      CREATE TABLE page (source_id TEXT NOT NULL, url TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (source_id, url));
      CREATE TABLE chunk (id INTEGER PRIMARY KEY, source_id TEXT NOT NULL, src TEXT NOT NULL, url TEXT NOT NULL, anchor TEXT NOT NULL,
        title TEXT NOT NULL, section TEXT NOT NULL, body TEXT NOT NULL, idents TEXT NOT NULL);
      CREATE VIRTUAL TABLE chunk_fts USING fts5(title, section, body, idents, src, content='chunk', content_rowid='id');
      CREATE VIRTUAL TABLE chunk_vocab USING fts5vocab(chunk_fts, 'row');
      CREATE VIRTUAL TABLE fts_s1111 USING fts5(title, section, body, idents, content='chunk', content_rowid='id');
      CREATE TRIGGER chunk_ai AFTER INSERT ON chunk BEGIN
        INSERT INTO chunk_fts (rowid, title, section, body, idents, src) VALUES (new.id, new.title, new.section, new.body, new.idents, new.src);
      END;
      INSERT INTO page VALUES ('${ID}', 'https://x/sharding.html', 'h');
      INSERT INTO chunk (source_id, src, url, anchor, title, section, body, idents) VALUES ('${ID}', 's1111', 'https://x/sharding.html', 'intro', 'Sharding', 'Intro', 'Sharding splits data across servers.', '');
      PRAGMA user_version = 4;`);
    old.close();
    const index = openSqliteIndex(file);
    const { chunks } = await index.retrieve({ query: "how is data split across servers?", sourceIds: [ID], limit: 5 });
    expect(chunks.map((c) => [c.url, c.anchor])).toEqual([["https://x/sharding.html", "intro"]]);
    expect([...(await index.writer.pageHashes(ID)).keys()]).toEqual(["https://x/sharding.html"]);
    index.close();
    const tables = new Database(file).prepare(`SELECT name FROM sqlite_master WHERE name LIKE '%fts%' OR name LIKE '%vocab%'`).pluck().all();
    expect(tables).toEqual([]);
  });
});

describe("index schema upgrade from version 5", () => {
  it("keeps the passages and segments of a version-5 index, their links empty until the next sync", async () => {
    const file = tempFile();
    const current = openSqliteIndex(file);
    await current.writer.replaceSource(ID, [
      {
        url: "https://x/sharding.html",
        hash: "h",
        chunks: [
          { sourceId: ID, url: "https://x/sharding.html", anchor: "intro", title: "Sharding", section: "Intro", text: "Sharding splits data across servers." },
        ],
      },
    ]);
    current.close();
    const old = new Database(file);
    old.exec(`ALTER TABLE chunk DROP COLUMN links; ALTER TABLE chunk DROP COLUMN spans; PRAGMA user_version = 5;`);
    old.close();
    const index = openSqliteIndex(file);
    const { chunks } = await index.retrieve({ query: "how is data split across servers?", sourceIds: [ID], limit: 5 });
    expect(chunks.map((c) => [c.url, c.anchor, c.links])).toEqual([["https://x/sharding.html", "intro", []]]);
    const linked = {
      url: "https://x/replicas.html",
      hash: "r",
      chunks: [
        {
          sourceId: ID,
          url: "https://x/replicas.html",
          anchor: "",
          title: "Replicas",
          section: "",
          text: "Replicas copy data across servers.",
          links: [{ url: "https://x/sharding.html", text: "sharding" }],
        },
      ],
    };
    await index.writer.applyChanges(ID, { upsert: [linked], remove: [] });
    const after = await index.retrieve({ query: "replicas copy data", sourceIds: [ID], limit: 1 });
    expect(after.chunks[0]!.links).toEqual([{ url: "https://x/sharding.html", text: "sharding" }]);
    index.close();
    expect(new Database(file).pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
  });
});

describe("index schema upgrade from version 6", () => {
  it("keeps a version-6 index's passages, each one section until the next sync, and stores spans from then on", async () => {
    const file = tempFile();
    const url = "https://x/advanced.html";
    const current = openSqliteIndex(file);
    await current.writer.replaceSource(ID, [
      { url, hash: "h", chunks: [{ sourceId: ID, url, anchor: "ordering", title: "Advanced", section: "Ordering", text: "Headers keep their order." }] },
    ]);
    current.close();
    const old = new Database(file);
    old.exec(`ALTER TABLE chunk DROP COLUMN spans; PRAGMA user_version = 6;`);
    old.close();
    const index = openSqliteIndex(file);
    const before = await index.retrieve({ query: "headers order", sourceIds: [ID], limit: 5 });
    expect(before.chunks.map((c) => [c.anchor, c.spans])).toEqual([["ordering", undefined]]);
    const spans = [
      { start: 0, anchor: "ordering", section: "Ordering" },
      { start: 26, anchor: "timeouts", section: "Timeouts" },
    ];
    const merged = {
      sourceId: ID,
      url,
      anchor: "ordering",
      title: "Advanced",
      section: "Ordering",
      text: "Headers keep their order.\n\nTimeouts\n\nSet a timeout.",
      spans,
    };
    await index.writer.applyChanges(ID, { upsert: [{ url, hash: "h2", chunks: [merged] }], remove: [] });
    const after = await index.retrieve({ query: "headers timeout", sourceIds: [ID], limit: 5 });
    index.close();
    expect(after.chunks[0]!.spans).toEqual(spans);
    expect(new Database(file).pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
  });
});

describe("one reading of text", () => {
  it("reads a text it did not search (a link's words) as it reads passages, accents folded", async () => {
    const index = openSqliteIndex(tempFile());
    const url = "https://x/desserts.html";
    await index.writer.replaceSource(ID, [
      { url, hash: url, chunks: [{ sourceId: ID, url, anchor: "", title: "Desserts", section: "", text: "Crème brûlée is a custard." }] },
    ]);
    const { chunks, terms, matches } = await index.retrieve({ query: "creme brulee", sourceIds: [ID], limit: 5 });
    index.close();
    const both = terms.map((t) => t.term);
    expect(chunks[0]!.matched.sort()).toEqual([...both].sort());
    expect(matches!("a Crème Brûlée recipe").sort()).toEqual([...both].sort());
  });
});

describe("query words", () => {
  it("drops stop words and splits words as the index does", () => {
    expect(queryWords(englishAnalyzer, "How do I create an index in Node.js?")).toEqual(["create", "index", "node", "js"]);
    expect(queryWords(englishAnalyzer, 'what is "quoted" OR NEAR')).toEqual(["quoted", "near"]);
  });
});
