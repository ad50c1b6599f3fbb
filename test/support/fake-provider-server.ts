import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local HTTP server that speaks the OpenAI Chat Completions and Anthropic
 * Messages wire protocols (JSON and SSE), so the real SDKs can be pointed at
 * it. Each request takes the next queued script (or the default one).
 */
export type Script =
  /** `delayMs`: the wait before a JSON reply, or between streamed pieces. */
  /** `refusal`: OpenAI's refusal, sent as `refusal` instead of `content` (Anthropic says it with `finish: "refusal"`). */
  | {
      kind: "reply";
      text: string;
      finish?: string;
      usage?: { input: number; output: number; reasoning?: number; cached?: number };
      delayMs?: number;
      refusal?: boolean;
    }
  /** Stream `text` in pieces but close the connection after `cutAfter` pieces, without finishing. */
  | { kind: "cut"; text: string; cutAfter: number }
  /** Stream forever (slowly) until the client goes away. */
  | { kind: "endless"; intervalMs: number }
  /** An HTTP error, with headers such as `retry-after` or `retry-after-ms`. */
  | { kind: "status"; status: number; message?: string; headers?: Record<string, string> }
  /** A well-formed stream start, `text` (may be empty), then an in-stream error event. */
  | { kind: "stream-error"; text: string; message: string }
  /** Never answers: no headers at all, or (`afterHeaders`) a 200 and the stream's start, then silence. */
  | { kind: "hang"; afterHeaders?: boolean }
  /** A well-formed start, then `lines` `data:` lines in small writes with no blank line ever ending an event (a broken stream). */
  | { kind: "no-blank-lines"; lines: number };

export interface RecordedRequest {
  /** `performance.now()` when the request arrived (the tests share this process's clock). */
  receivedAt: number;
  /** Set when the client closed the connection before the response ended. */
  abortedAt?: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeProviderServer {
  url: string;
  openaiBaseUrl: string;
  anthropicBaseUrl: string;
  requests: RecordedRequest[];
  /** Requests whose client closed the connection before the response ended. */
  clientAborts: number;
  /** How long the embeddings endpoint waits before answering (0: at once). */
  embeddingDelayMs: number;
  queue(...scripts: Script[]): void;
  close(): Promise<void>;
}

const pieces = (text: string) => text.match(/\S+\s*/g) ?? [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFakeProviderServer(defaultScript: Script = { kind: "reply", text: "A grounded answer [1]." }): Promise<FakeProviderServer> {
  const scripts: Script[] = [];
  const state = { clientAborts: 0 };
  const settings = { embeddingDelayMs: 0 };
  const requests: RecordedRequest[] = [];

  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : null;
    const recorded: RecordedRequest = { receivedAt: performance.now(), path: req.url ?? "", headers: req.headers, body };
    requests.push(recorded);
    if (req.url?.endsWith("/embeddings")) {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
      if (settings.embeddingDelayMs > 0) {
        let answered = false;
        res.on("close", () => {
          if (!answered) state.clientAborts++;
        });
        await sleep(settings.embeddingDelayMs);
        if (res.destroyed) return;
        answered = true;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          object: "list",
          model: body.model,
          data: inputs.map((text, index) => ({ object: "embedding", index, embedding: fakeEmbedding(text) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
      return;
    }
    const script = scripts.shift() ?? defaultScript;
    let finished = false;
    res.on("close", () => {
      if (finished) return;
      state.clientAborts++;
      recorded.abortedAt = performance.now();
    });
    const anthropic = req.url?.endsWith("/messages") ?? false;
    const model = body?.model ?? "model";

    if (script.kind === "status") {
      const message = script.message ?? `fake failure ${script.status}`;
      const payload = anthropic
        ? { type: "error", error: { type: script.status === 529 ? "overloaded_error" : "api_error", message } }
        : { error: { message, type: "server_error", param: null, code: null } };
      res.writeHead(script.status, { "content-type": "application/json", ...script.headers });
      finished = true;
      res.end(JSON.stringify(payload));
      return;
    }
    if (script.kind === "hang" && !script.afterHeaders) return;
    if (!body?.stream) {
      if (script.kind === "hang") {
        res.writeHead(200, { "content-type": "application/json" });
        res.flushHeaders();
        return;
      }
      if (script.kind === "reply" && script.delayMs) await sleep(script.delayMs);
      if (res.destroyed) return;
      const text = script.kind === "reply" ? script.text : "";
      const usage = script.kind === "reply" ? script.usage : undefined;
      res.writeHead(200, { "content-type": "application/json" });
      finished = true;
      const refused = script.kind === "reply" && script.refusal === true;
      res.end(JSON.stringify(anthropic ? anthropicMessage(model, text, usage) : openaiCompletion(model, text, usage, refused)));
      return;
    }

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (event: string | null, data: unknown) =>
      res.write(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
    const start = () => {
      if (anthropic) {
        send("message_start", {
          type: "message_start",
          message: {
            id: "msg_fake",
            type: "message",
            role: "assistant",
            content: [],
            model,
            stop_reason: null,
            stop_sequence: null,
            usage: {
              input_tokens: script.kind === "reply" ? (script.usage?.input ?? 11) : 11,
              output_tokens: 1,
              // Anthropic counts cache reads apart from input_tokens.
              ...(script.kind === "reply" && script.usage?.cached !== undefined && { cache_read_input_tokens: script.usage.cached }),
            },
          },
        });
        send("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
        send("ping", { type: "ping" });
      } else {
        send(null, openaiChunk(model, { role: "assistant", content: "" }, null));
      }
    };
    const refusal = script.kind === "reply" && script.refusal === true;
    const delta = (text: string) =>
      anthropic
        ? send("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })
        : send(null, openaiChunk(model, refusal ? { refusal: text } : { content: text }, null));

    start();
    if (script.kind === "hang") return;
    if (script.kind === "no-blank-lines") {
      const line = `data: ${JSON.stringify(openaiChunk(model, { content: "x" }, null))}\n`;
      for (let i = 0; i < script.lines && !res.destroyed; i += 200) {
        if (!res.write(line.repeat(200))) await new Promise((r) => res.once("drain", r));
      }
      res.end();
      return;
    }
    if (script.kind === "endless") {
      while (!res.destroyed && !res.writableEnded) {
        delta("more ");
        await sleep(script.intervalMs);
      }
      return;
    }
    if (script.kind === "cut") {
      for (const piece of pieces(script.text).slice(0, script.cutAfter)) delta(piece);
      await sleep(20);
      res.destroy();
      return;
    }
    if (script.kind === "stream-error") {
      for (const piece of pieces(script.text)) delta(piece);
      if (anthropic) send("error", { type: "error", error: { type: "overloaded_error", message: script.message } });
      else send(null, { error: { message: script.message, type: "server_error", param: null, code: null } });
      finished = true;
      res.end();
      return;
    }
    for (const piece of pieces(script.text)) {
      delta(piece);
      if (script.delayMs) await sleep(script.delayMs);
    }
    const usage = script.usage ?? { input: 42, output: pieces(script.text).length };
    if (anthropic) {
      send("content_block_stop", { type: "content_block_stop", index: 0 });
      send("message_delta", {
        type: "message_delta",
        delta: { stop_reason: script.finish ?? "end_turn", stop_sequence: null },
        usage: { output_tokens: usage.output },
      });
      send("message_stop", { type: "message_stop" });
    } else {
      send(null, openaiChunk(model, {}, script.finish ?? "stop"));
      if (body.stream_options?.include_usage) send(null, { ...openaiChunk(model, {}, null), choices: [], usage: openaiUsage(usage) });
      send(null, "[DONE]");
    }
    finished = true;
    res.end();
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    requests,
    get clientAborts() {
      return state.clientAborts;
    },
    get embeddingDelayMs() {
      return settings.embeddingDelayMs;
    },
    set embeddingDelayMs(ms: number) {
      settings.embeddingDelayMs = ms;
    },
    queue: (...s) => scripts.push(...s),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const openaiUsage = (u: { input: number; output: number; reasoning?: number; cached?: number }) => ({
  prompt_tokens: u.input,
  completion_tokens: u.output,
  total_tokens: u.input + u.output,
  completion_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
  ...(u.cached !== undefined && { prompt_tokens_details: { cached_tokens: u.cached } }),
});

function openaiChunk(model: string, delta: object, finish: string | null) {
  return {
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 1,
    model,
    system_fingerprint: "fp_fake",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

function openaiCompletion(model: string, text: string, usage?: { input: number; output: number; reasoning?: number; cached?: number }, refusal = false) {
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1,
    model,
    choices: [
      { index: 0, message: { role: "assistant", content: refusal ? null : text, refusal: refusal ? text : null }, logprobs: null, finish_reason: "stop" },
    ],
    usage: openaiUsage(usage ?? { input: 42, output: pieces(text).length }),
  };
}

function anthropicMessage(model: string, text: string, usage?: { input: number; output: number }) {
  return {
    id: "msg_fake",
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: usage?.input ?? 42, output_tokens: usage?.output ?? pieces(text).length },
  };
}

/**
 * A stand-in for a semantic embedding model: a bag of concepts, where
 * synonyms share a concept ("rearrange" ~ "reorder"), so tests can tell
 * search by meaning from search by words.
 */
const CONCEPTS: Record<string, string[]> = {
  reorder: ["reorder", "reordered", "rearrange", "rearranged", "cluster", "clustered"],
  table: ["table", "tables", "relation"],
  index: ["index", "indexes", "indices"],
  cleanup: ["vacuum", "reclaim", "reclaims", "garbage", "tidy"],
  storage: ["storage", "disk", "space", "file"],
};
export function fakeEmbedding(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  const keys = Object.keys(CONCEPTS);
  const vector = keys.map((k) => (words.some((w) => CONCEPTS[k]!.includes(w)) ? 1 : 0));
  return [...vector, 0.01];
}
