import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlRequest, trpcClient } from "./support/clients.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/**
 * A key scoped to some sources sees only those, on every interface; the
 * others answer exactly like ids that do not exist. Expired keys get 401.
 */
describe("source-scoped keys", () => {
  let server: TestServer;
  let scoped: string;
  const unknownId = "00000000-0000-4000-8000-000000000000";
  beforeAll(async () => {
    server = await startTestServer();
    scoped = (await server.services.keys.create("sqlite only", { sourceIds: [server.sources.sqlite] })).key;
  });
  afterAll(async () => server?.close());

  const rest = (key: string, path: string) => fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

  it("lists only the key's sources on REST, GraphQL and tRPC", async () => {
    const listed = (await (await rest(scoped, "/sources")).json()).data.map((s: { id: string }) => s.id);
    expect(listed).toEqual([server.sources.sqlite]);
    const { body } = await graphqlRequest(server.url, scoped, `{ sources { id } }`);
    expect(body.data.sources.map((s: { id: string }) => s.id)).toEqual([server.sources.sqlite]);
    expect((await trpcClient(server.url, scoped).sources.list.query()).map((s) => s.id)).toEqual([server.sources.sqlite]);
  });

  it("reads a source id in any case, as `sources` does, and keeps the scope so", async () => {
    const upper = (id: string) => id.toUpperCase();
    const own = await rest(scoped, `/sources/${upper(server.sources.sqlite)}`);
    expect(own.status).toBe(200);
    expect((await own.json()).id).toBe(server.sources.sqlite);
    expect((await rest(scoped, `/sources/${upper(server.sources.pg)}`)).status).toBe(404);
  });

  it("answers a source outside the scope exactly like an unknown id", async () => {
    const outside = await rest(scoped, `/sources/${server.sources.pg}`);
    const unknown = await rest(scoped, `/sources/${unknownId}`);
    expect(outside.status).toBe(404);
    const [a, b] = [await outside.json(), await unknown.json()];
    expect(a).toEqual(JSON.parse(JSON.stringify(b).replaceAll(unknownId, server.sources.pg)));

    const client = new OpenAI({ apiKey: scoped, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const ask = (id: string) =>
      client.chat.completions
        .create({ model: "agent", messages: [{ role: "user", content: "How do I reclaim space with VACUUM?" }], sources: [id] } as never)
        .then(
          () => null,
          (e: InstanceType<typeof OpenAI.APIError>) => ({ status: e.status, error: e.error }),
        );
    const [askOutside, askUnknown] = [await ask(server.sources.pg), await ask(unknownId)];
    expect(askOutside!.status).toBe(404);
    expect(askOutside).toEqual(JSON.parse(JSON.stringify(askUnknown).replaceAll(unknownId, server.sources.pg)));
  });

  it("refuses a question about words only other sources hold exactly as one about words no source holds", async () => {
    const client = new OpenAI({ apiKey: scoped, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const reply = async (content: string) =>
      (await client.chat.completions.create({ model: "agent", messages: [{ role: "user", content }] })).choices[0]!.message.content;
    // "employees" is in the PostgreSQL fixture only; "giraffes" nowhere.
    expect(await reply("Tell me about the employees")).toBe(await reply("Tell me about the giraffes"));
  });

  it("answers a question of words only other sources hold exactly as one of words no source holds", async () => {
    // What a question's words weigh is read over the key's sources only. Weighed over every source, "verbose" and
    // "cluster" (PostgreSQL's fixture only) made this question refused where "elegant" and "juggle" let it be answered:
    // a second hostile probe told which words a hidden source holds that way.
    const client = new OpenAI({ apiKey: scoped, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const answer = async (content: string) => {
      const completion: any = await client.chat.completions.create({ model: "agent", messages: [{ role: "user", content }] });
      return { content: completion.choices[0]!.message.content, references: completion.url_references };
    };
    const hidden = await answer("What is the verbose cluster of a partial index?");
    expect(hidden.references.length).toBeGreaterThan(0);
    expect(hidden).toEqual(await answer("What is the elegant juggle of a partial index?"));
  });

  it("lets the agent choose only among the key's sources", async () => {
    const question = "How do I physically reorder a table according to an index with CLUSTER?";
    const ask = async (key: string) => {
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: question }] }),
      });
      return { sources: response.headers.get("x-docent-sources"), body: (await response.json()) as { url_references: string[] } };
    };
    const open = await ask(server.key);
    expect(open.sources).toContain(server.sources.pg);
    const limited = await ask(scoped);
    expect(
      limited.sources
        ?.split(",")
        .filter(Boolean)
        .every((id) => id === server.sources.sqlite),
    ).toBe(true);
    expect(limited.body.url_references.every((url) => url.startsWith("https://www.sqlite.org/"))).toBe(true);
  });

  it("refuses an expired key with 401 on every interface", async () => {
    const expired = (await server.services.keys.create("expired", { expiresAt: new Date(Date.now() + 300) })).key;
    expect((await rest(expired, "/models")).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await rest(expired, "/models")).status).toBe(401);
    expect((await graphqlRequest(server.url, expired, `{ models { id } }`)).status).toBe(401);
    await expect(trpcClient(server.url, expired).models.list.query()).rejects.toMatchObject({ data: { code: "UNAUTHORIZED" } });
  });
});
