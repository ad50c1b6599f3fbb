import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mcpClient, trpcClient } from "./support/clients.ts";
import { type ServerWithProviders, startServerWithProviders } from "./support/test-server.ts";

/**
 * A key revoked while its answer streams: the answer stops within a second or
 * two, its provider call is cut, and the client is told why (401
 * invalid_api_key in its protocol's error form) rather than left with a reply
 * cut short. Before, the stream ran on, paying its provider, as long as the
 * client read it. The provider streams forever, so only the revocation ends it.
 */
describe("a key revoked mid-answer", () => {
  let running: ServerWithProviders;
  beforeAll(async () => {
    running = await startServerWithProviders({ kind: "endless", intervalMs: 20 });
  });
  afterAll(() => running.close());

  const question = { role: "user" as const, content: "How do I physically reorder a table according to an index?" };

  /** A fresh key and a client for it; once `started` resolves (text is flowing), the key is revoked. */
  async function revokedWhileStreaming<T>(consume: (key: string, started: () => void) => Promise<T>): Promise<{ result: T; providerCut: boolean }> {
    const { server, fake } = running;
    const created = await server.services.keys.create("soon revoked");
    const sent = fake.requests.length;
    let revoke!: () => void;
    const revoked = new Promise<void>((resolve) => {
      revoke = resolve;
    }).then(() => server.services.keys.revoke(created.id));
    const result = await consume(created.key, () => revoke());
    await revoked;
    await vi.waitFor(() => expect(fake.requests[sent]?.abortedAt).toBeDefined(), { timeout: 3000 });
    return { result, providerCut: true };
  }

  it("a streamed chat completion ends with the refusal, which the openai SDK throws", async () => {
    const { result } = await revokedWhileStreaming(async (key, started) => {
      const client = new OpenAI({ apiKey: key, baseURL: `${running.server.url}/v1`, maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: "provider_a",
        messages: [question],
        stream: true,
        sources: [running.server.sources.pg],
      } as never);
      let text = "";
      try {
        for await (const chunk of stream as unknown as AsyncIterable<OpenAI.Chat.ChatCompletionChunk>) {
          text += chunk.choices[0]?.delta.content ?? "";
          if (text.length > 0) started();
        }
        return { text, error: null };
      } catch (error) {
        return { text, error: error as InstanceType<typeof OpenAI.APIError> };
      }
    });
    expect(result.text).toMatch(/more/);
    expect(result.error).toBeInstanceOf(OpenAI.APIError);
    expect(result.error!.message).toMatch(/revoked or expired API key/);
  });

  it("a streamed Responses API answer ends with response.failed", async () => {
    const { result } = await revokedWhileStreaming(async (key, started) => {
      const client = new OpenAI({ apiKey: key, baseURL: `${running.server.url}/v1`, maxRetries: 0 });
      const stream = await client.responses.create({
        model: "provider_a",
        input: question.content,
        stream: true,
        sources: [running.server.sources.pg],
      } as never);
      const types: string[] = [];
      let failed: unknown = null;
      for await (const event of stream as unknown as AsyncIterable<OpenAI.Responses.ResponseStreamEvent>) {
        types.push(event.type);
        if (event.type === "response.output_text.delta") started();
        if (event.type === "response.failed") failed = event.response.error;
      }
      return { types, failed };
    });
    expect(result.types).toContain("response.output_text.delta");
    expect(result.types.at(-1)).toBe("response.failed");
    expect(result.failed).toMatchObject({ message: expect.stringMatching(/revoked or expired API key/) });
  });

  it("a tRPC subscription ends with UNAUTHORIZED", async () => {
    const { result } = await revokedWhileStreaming(
      (key, started) =>
        new Promise<{ chunks: number; error: { data?: { code?: string } } | null }>((resolve) => {
          let chunks = 0;
          const subscription = trpcClient(running.server.url, key).chat.completions.stream.subscribe(
            { model: "provider_a", messages: [question], sources: [running.server.sources.pg] },
            {
              onData: () => {
                chunks++;
                started();
              },
              onError: (error) => {
                subscription.unsubscribe();
                resolve({ chunks, error: error as never });
              },
              onComplete: () => resolve({ chunks, error: null }),
            },
          );
        }),
    );
    expect(result.chunks).toBeGreaterThan(0);
    expect(result.error?.data?.code).toBe("UNAUTHORIZED");
  });

  it("an MCP ask_docs call ends as a tool error", async () => {
    const { result } = await revokedWhileStreaming(async (key, started) => {
      const client = await mcpClient(running.server.url, key);
      // ask_docs collects the whole answer: revoke once its provider call is under way.
      const sent = running.fake.requests.length;
      const call = client.callTool({ name: "ask_docs", arguments: { question: question.content, sources: [running.server.sources.pg] } });
      await vi.waitFor(() => expect(running.fake.requests.length).toBe(sent + 1), { timeout: 5000 });
      started();
      const outcome = (await call) as { isError?: boolean; content: Array<{ text?: string }> };
      await client.close();
      return outcome;
    });
    expect(result.isError).toBe(true);
    expect(result.content.map((c) => c.text).join("")).toMatch(/revoked or expired API key/);
  });
});
