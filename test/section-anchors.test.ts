import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestDocuments } from "../src/ingest/ingest-documents.ts";
import { listDocuments } from "../src/ingest/list-documents.ts";
import { mcpClient } from "./support/clients.ts";
import { startTestServer, type TestServer, tempDir } from "./support/test-server.ts";

const BASE = "https://requests.example/";
/** Each section's text by the URL a reference to it would carry. */
const SECTIONS: Record<string, Record<string, string>> = {
  "advanced.html": {
    "header-ordering": "In unusual circumstances you may want to provide headers in an ordered manner.",
    timeouts: "Most requests to external servers should have a timeout attached, in case the server is not responding in a timely manner.",
    proxies: "If you need to use a proxy, you can configure individual requests with the proxies argument.",
  },
  "api.html": {
    "session-api": "A Requests session keeps settings such as timeouts across the requests it makes to external servers.",
    "timeout-note": "Most requests to external servers should have a timeout attached, in case the server is not answering in a timely manner.",
  },
};

const html = (title: string, sections: Record<string, string>) =>
  `<html><head><title>${title}</title></head><body><div class="body"><h1>${title}</h1>${Object.entries(sections)
    .map(([id, text]) => `<section id="${id}"><h2>${id.replace(/-/g, " ")}</h2><p>${text}</p></section>`)
    .join("")}</div></body></html>`;

/** The sentences of a reply that cite, each with the reference URLs its marker names. */
function citedSentences(content: string, references: string[]): Array<{ sentence: string; urls: string[] }> {
  return [...content.split("\n\nSee also:")[0]!.matchAll(/([^\]]*?)\s*\[(\d+(?:, \d+)*)\]/g)].map((m) => ({
    sentence: m[1]!.trim(),
    urls: m[2]!.split(", ").map((n) => references[Number(n) - 1]!),
  }));
}

/** Short sections merged into one passage keep their own anchors, and a sentence is credited only to sections that hold it. */
describe("references point at the section that holds the cited sentence", () => {
  let server: TestServer;
  let id: string;
  beforeAll(async () => {
    server = await startTestServer();
    const dir = tempDir();
    for (const [file, sections] of Object.entries(SECTIONS))
      fs.writeFileSync(path.join(dir, file), html(file === "api.html" ? "API" : "Advanced Usage", sections));
    id = (await ingestDocuments(server.services, { name: "Requests", baseUrl: BASE, origin: dir, documents: listDocuments(dir) })).source.id;
  });
  afterAll(() => server.close());

  it("cites each sentence with the anchor of its own section, never a near copy's page", async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "agent", messages: [{ role: "user", content: "Should requests to external servers have a timeout?" }], sources: [id] }),
    });
    const body = (await response.json()) as { url_references: string[]; choices: Array<{ message: { content: string } }> };
    const cited = citedSentences(body.choices[0]!.message.content, body.url_references);
    expect(cited.length).toBeGreaterThan(0);
    for (const { sentence, urls } of cited) {
      for (const url of urls) {
        const [page, anchor] = url.slice(BASE.length).split("#");
        expect(SECTIONS[page!]?.[anchor!], `${url} holds "${sentence}"`).toContain(sentence);
      }
    }
    // One page cited from two of its sections is referenced once per section; the page whose
    // sentence only nearly repeats a quoted one is pointed to at its own section, not credited with it.
    expect(body.url_references).toEqual([`${BASE}api.html#session-api`, `${BASE}api.html#timeout-note`, `${BASE}advanced.html#timeouts`]);
    expect(cited.flatMap((c) => c.urls)).not.toContain(`${BASE}advanced.html#timeouts`);
  });

  it("get_page opens at the section a reference names, also when short sections share one passage", async () => {
    const client = await mcpClient(server.url, server.key);
    try {
      for (const [anchor, text] of Object.entries(SECTIONS["advanced.html"]!)) {
        const result = (await client.callTool({ name: "get_page", arguments: { url: `${BASE}advanced.html#${anchor}` } })) as {
          structuredContent: { sections: Array<{ url: string; text: string }> };
        };
        const first = result.structuredContent.sections[0]!;
        expect(first.url, anchor).toBe(`${BASE}advanced.html#${anchor}`);
        expect(first.text, anchor).toContain(text);
        // The section's own text, not its neighbours'.
        for (const [other, otherText] of Object.entries(SECTIONS["advanced.html"]!)) if (other !== anchor) expect(first.text).not.toContain(otherText);
      }
    } finally {
      await client.close();
    }
  });
});
