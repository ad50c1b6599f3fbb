import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { FIXTURES, pageOf, startTestServer, type TestServer } from "./support/test-server.ts";

type Reply = OpenAI.Chat.ChatCompletion & { url_references: string[] };

/** Offline answers a person can use: the code a sentence introduces, and reference pages before changelogs. */
describe("answers a person can use without a language model", () => {
  let server: TestServer;
  let client: OpenAI;
  let guide: string;
  beforeAll(async () => {
    server = await startTestServer();
    const dir = path.join(FIXTURES, "guide");
    guide = (
      await ingestDocuments(server.services, {
        name: "Guide",
        baseUrl: "https://guide.example/",
        description: "A guide.",
        origin: dir,
        documents: listDocuments(dir),
      })
    ).source.id;
    client = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => server.close());

  const ask = async (content: string) =>
    (await client.chat.completions.create({
      model: "agent",
      messages: [{ role: "user", content }],
      sources: [guide],
    } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming)) as Reply;

  it("quotes the code a sentence introduces, whole, in a fenced block with its indentation", async () => {
    const reply = await ask("How do I download a large file in pieces?");
    const text = reply.choices[0]!.message.content!;
    expect(text).toMatch(/read it chunk by chunk: \[1[, \d]*\]\n\n```\n/);
    expect(text).toContain(
      '\n```\nr = get(url, stream=True)\nwith open(path, "wb") as fd:\n    for chunk in r.iter_content(chunk_size=128):\n        fd.write(chunk)\n```',
    );
  });

  it("puts the guide before the changelog that repeats its words, unless the question is about versions", async () => {
    const how = await ask("How do I download a large file chunk by chunk?");
    expect(pageOf(how.url_references[0])).toBe("https://guide.example/streaming.html");
    const when = await ask("Which version streams large file downloads chunk by chunk?");
    expect(pageOf(when.url_references[0])).toBe("https://guide.example/changes.html");
  });
});
