import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_QUESTION_STORAGE_NOTE } from "../src/core/gap-report.ts";
import { runCliProcess } from "./support/cli-process.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

const LOCKS = "What locks does CLUSTER take on partitioned tables?"; // refused: the fixture's CLUSTER page does not say
const LOCKS_AGAIN = "Which locks does CLUSTER take on a partitioned table?";
const MOONS = "How many moons does Jupiter have?"; // refused, nothing near
const SHRINK = "How do I shrink the database file?"; // answered from SQLite's VACUUM page, covering 0.58 of the question
const REORDER = "How do I physically reorder a table according to an index?"; // answered well, then down-voted
const PARTIAL = "How do I create a partial index in SQLite?"; // answered well: no gap

async function ask(server: TestServer, key: string, content: string): Promise<string> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "agent", messages: [{ role: "user", content }] }),
  });
  expect(response.status).toBe(200);
  return (await response.json()).id;
}

/** Asked through the Responses API: its id is `resp_…`. */
async function askResponses(server: TestServer, key: string, input: string): Promise<string> {
  const response = await fetch(`${server.url}/v1/responses`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "agent", input }),
  });
  expect(response.status).toBe(200);
  return (await response.json()).id;
}

async function downVote(server: TestServer, id: string, comment: string) {
  const response = await fetch(`${server.url}/v1/feedback`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    body: JSON.stringify({ completion_id: id, rating: "down", comment }),
  });
  expect(response.status).toBe(200);
}

async function cli(server: TestServer, ...args: string[]) {
  // What the server has served is in the database within USAGE_FLUSH_MS; write it now instead of waiting.
  await server.services.usage.ledger.flush();
  const { code, stdout, stderr } = await runCliProcess({ DATA_DIR: server.dataDir }, ...args);
  if (code !== 0) throw new Error(`cli ${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout;
}

/** The docs-gap report from real requests: refused, weakly grounded and down-voted answers, grouped by wording. */
describe("report gaps, with question storage", () => {
  let server: TestServer;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer({ STORE_QUESTIONS: "1" });
    const other = await server.services.keys.create("another reader");
    ids.locks = await ask(server, server.key, LOCKS);
    ids.locksAgain = await ask(server, other.key, LOCKS_AGAIN);
    // Each gap is listed under the id its caller saw.
    ids.moons = await askResponses(server, server.key, MOONS);
    expect(ids.moons).toMatch(/^resp_/);
    ids.shrink = await ask(server, server.key, SHRINK);
    ids.reorder = await ask(server, server.key, REORDER);
    ids.partial = await ask(server, server.key, PARTIAL);
    // Small talk is answered, not refused: no gap.
    ids.hi = await ask(server, server.key, "Hi!");
    await downVote(server, ids.reorder, "It does not say CLUSTER locks the table.");
  });
  afterAll(() => server.close());

  it("lists each kind of gap once, rewordings of one question together, with the pages that came closest", async () => {
    const report = JSON.parse(await cli(server, "report", "gaps", "--json"));
    expect(report).toMatchObject({ completions: 7, gaps: 5, questions_stored: 5, note: null, weak_below: 0.8 });
    const byQuestion = new Map(report.groups.map((g: { question: string }) => [g.question, g]));
    expect(report.groups).toHaveLength(4);
    // The largest group first: two readers asked the same thing in different words.
    expect(report.groups[0]).toMatchObject({
      question: LOCKS,
      wordings: [LOCKS, LOCKS_AGAIN],
      count: 2,
      refused: 2,
      weak: 0,
      down_voted: 0,
      completion_ids: [ids.locks, ids.locksAgain],
    });
    expect(report.groups[0].closest_pages[0]).toMatchObject({
      url: expect.stringMatching(/sql-cluster\.html/),
      source_id: server.sources.pg,
      source_name: "PostgreSQL 15 Documentation",
      count: 2,
    });
    expect(byQuestion.get(MOONS)).toMatchObject({ count: 1, refused: 1, closest_pages: [], lowest_coverage: null, completion_ids: [ids.moons] });
    expect(byQuestion.get(SHRINK)).toMatchObject({ count: 1, refused: 0, weak: 1, completion_ids: [ids.shrink] });
    expect((byQuestion.get(SHRINK) as { lowest_coverage: number }).lowest_coverage).toBeLessThan(0.8);
    expect((byQuestion.get(SHRINK) as { closest_pages: Array<{ url: string; source_name: string }> }).closest_pages[0]).toMatchObject({
      url: expect.stringMatching(/vacuum\.md/),
      source_name: "SQLite Documentation",
    });
    expect(byQuestion.get(REORDER)).toMatchObject({
      count: 1,
      refused: 0,
      weak: 0,
      down_voted: 1,
      comments: ["It does not say CLUSTER locks the table."],
      completion_ids: [ids.reorder],
    });
    expect(byQuestion.has(PARTIAL)).toBe(false);
    expect(byQuestion.has("Hi!")).toBe(false);
  });

  it("narrows to one source, to a window, and to a stricter or looser weak line; prints a readable list", async () => {
    const sqliteOnly = JSON.parse(await cli(server, "report", "gaps", "--source", server.sources.sqlite, "--json"));
    expect(sqliteOnly.groups.map((g: { question: string }) => g.question)).toEqual([SHRINK]);
    expect(sqliteOnly.source_id).toBe(server.sources.sqlite);
    const future = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect(JSON.parse(await cli(server, "report", "gaps", "--since", future, "--json"))).toMatchObject({ completions: 0, gaps: 0, groups: [] });
    const strict = JSON.parse(await cli(server, "report", "gaps", "--weak-below", "0.5", "--json"));
    expect(strict.groups.map((g: { question: string }) => g.question)).not.toContain(SHRINK);

    const text = await cli(server, "report", "gaps", "--since", "1d");
    expect(text).toContain("5 of 7 answers");
    expect(text).toContain(`1. "${LOCKS}" ×2 (2 refused`);
    expect(text).toContain(`also asked: "${LOCKS_AGAIN}"`);
    expect(text).toMatch(/closest: PostgreSQL 15 Documentation — .*sql-cluster\.html/);
    expect(text).toContain(`"${SHRINK}" ×1 (1 weakly grounded`);
    expect(text).toContain(`reader said: "It does not say CLUSTER locks the table."`);
    expect(text).toContain(ids.moons);
  });
});

describe("report gaps, without question storage", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("says it needs question storage for wording, and still shows ids and counts, grouped by the closest page", async () => {
    const locks = await ask(server, server.key, LOCKS);
    const locksAgain = await ask(server, server.key, LOCKS_AGAIN);
    const moons = await ask(server, server.key, MOONS);
    const partial = await ask(server, server.key, PARTIAL);
    const report = JSON.parse(await cli(server, "report", "gaps", "--json"));
    expect(report).toMatchObject({ completions: 4, gaps: 3, questions_stored: 0, note: NO_QUESTION_STORAGE_NOTE });
    expect(report.groups).toEqual([
      expect.objectContaining({
        question: null,
        wordings: [],
        count: 2,
        refused: 2,
        completion_ids: [locks, locksAgain],
        closest_pages: [expect.objectContaining({ url: expect.stringMatching(/sql-cluster\.html/) }), expect.anything(), expect.anything()],
      }),
      expect.objectContaining({ question: null, count: 1, refused: 1, completion_ids: [moons], closest_pages: [] }),
    ]);
    expect(JSON.stringify(report)).not.toContain(partial);
    const text = await cli(server, "report", "gaps");
    expect(text).toContain("STORE_QUESTIONS=1");
    expect(text).not.toContain("Jupiter");
    expect(text).toContain(locks);
  });
});
