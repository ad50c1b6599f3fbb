import http from "node:http";
import https from "node:https";
import OpenAI from "openai";
import { isAbortError } from "../../core/errors.ts";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/** Each client's endpoint, parsed once (a few clients per process: one per configured provider). */
const endpoints = new Map<string, URL>();

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * `POST {baseURL}/chat/completions` with `stream: true` over node:http, the
 * server-sent events split by hand: the same request the `openai` SDK sends
 * (its client's base URL, key, organization and project), without its fetch,
 * web streams and event decoder, which cost 0.5–0.7 ms of CPU a call here
 * (an SDK stream 0.7–1.0 ms, this 0.2–0.3 ms), more than the rest of what
 * docent adds to a request. Failures are the SDK's own error classes, built
 * as the SDK builds them, so `mapProviderError` reads them the same way; an
 * abort rejects with the signal's AbortError.
 */
export async function openChatStream(client: OpenAI, body: Record<string, unknown>, signal?: AbortSignal): Promise<AsyncGenerator<Chunk>> {
  signal?.throwIfAborted();
  let url = endpoints.get(client.baseURL);
  if (!url) endpoints.set(client.baseURL, (url = new URL(`${client.baseURL.replace(/\/+$/, "")}/chat/completions`)));
  const payload = JSON.stringify(body);
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    accept: "text/event-stream",
    "content-length": Buffer.byteLength(payload),
    authorization: `Bearer ${client.apiKey}`,
  };
  if (client.organization) headers["openai-organization"] = client.organization;
  if (client.project) headers["openai-project"] = client.project;
  const secure = url.protocol === "https:";
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = (secure ? https : http).request(url, { method: "POST", headers, agent: secure ? agents.https : agents.http, signal }, resolve);
    request.on("error", (error) => reject(signal?.aborted ? error : new OpenAI.APIConnectionError({ cause: error })));
    request.end(payload);
  });
  const status = response.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    let text = "";
    response.setEncoding("utf8");
    for await (const piece of response) text += piece;
    const json = safeJson(text);
    throw OpenAI.APIError.generate(status, json as object | undefined, json ? undefined : text, headersOf(response));
  }
  return events(response, signal);
}

/** The response's headers as the SDK's errors carry them; built only for an error (a web Headers costs more than the parsing). */
function headersOf(response: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < response.rawHeaders.length; i += 2) headers.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
  return headers;
}

/** The blank line that ends an event (any of the line endings server-sent events allow). */
const BLANK_LINE = /\r?\n\r?\n/g;
/** One event longer than this is no chat chunk: the stream is broken (or hostile), and its buffer is not let grow. */
const MAX_EVENT_CHARS = 4 * 1024 * 1024;

/** The stream's `data:` payloads as JSON, up to `[DONE]`; an `error` payload or event throws as the SDK does. */
async function* events(response: http.IncomingMessage, signal: AbortSignal | undefined): AsyncGenerator<Chunk> {
  response.setEncoding("utf8");
  let buffer = "";
  // Where the search for the next blank line resumes: searching the whole buffer for each piece was
  // quadratic when a stream never sent one (a broken provider's lines stalled the server for seconds).
  let scanned = 0;
  let done = false;
  try {
    for await (const piece of response as AsyncIterable<string>) {
      // After [DONE] the body's end is still read (it is in the same packet), so the connection goes back to the pool.
      if (done) continue;
      buffer += piece;
      if (buffer.length > MAX_EVENT_CHARS)
        throw new OpenAI.APIError(undefined, undefined, `A streamed event is longer than ${MAX_EVENT_CHARS} characters.`, undefined);
      for (;;) {
        BLANK_LINE.lastIndex = Math.max(0, scanned - 3);
        const blank = BLANK_LINE.exec(buffer);
        if (!blank) {
          scanned = buffer.length;
          break;
        }
        const end = blank.index;
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + blank[0].length);
        scanned = 0;
        let event: string | null = null;
        let data = "";
        for (const line of block.split(/\r?\n/)) {
          if (line.startsWith("data:")) data += (data ? "\n" : "") + line.slice(line[5] === " " ? 6 : 5);
          else if (line.startsWith("event:")) event = line.slice(6).trim();
        }
        if (!data) continue;
        if (data.startsWith("[DONE]")) {
          done = true;
          break;
        }
        const parsed = safeJson(data) as (Chunk & { error?: unknown; message?: string }) | undefined;
        if (parsed === undefined)
          throw new OpenAI.APIError(undefined, undefined, `Could not parse a streamed chunk: ${data.slice(0, 200)}`, headersOf(response));
        if (event === "error") throw new OpenAI.APIError(undefined, parsed.error as object, parsed.message, undefined);
        if (parsed.error) throw new OpenAI.APIError(undefined, parsed.error as object, undefined, headersOf(response));
        yield parsed;
      }
    }
  } catch (error) {
    // The caller left: that is the reason, whatever the socket said on closing (it would read as a provider failure).
    if (signal?.aborted) throw isAbortError(signal.reason) ? signal.reason : new DOMException("The request was aborted.", "AbortError");
    if (error instanceof OpenAI.APIError) throw error;
    throw new OpenAI.APIConnectionError({ cause: error as Error });
  } finally {
    // Left early (client gone, or an error): the connection is closed rather than read to its end.
    if (!response.complete) response.destroy();
  }
}
