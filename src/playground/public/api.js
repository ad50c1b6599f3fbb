// Calls to docent's REST API from the page: errors sorted into kinds the page explains.

/** kind: "auth" (401), "rate" (429, retryAfter in seconds), "network", "cut" (stream ended early), "http" (any other). */
export class ApiError extends Error {
  constructor(kind, message, { status = null, retryAfter = null } = {}) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** Retry-After as seconds: a number of seconds or an HTTP date. */
export function retryAfterSeconds(value, now = Date.now()) {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

async function errorOf(response) {
  let message = "";
  try {
    message = (await response.json())?.error?.message ?? "";
  } catch {
    // Not docent's JSON error shape (a proxy's page, say): the status says enough.
  }
  const status = response.status;
  if (status === 401) return new ApiError("auth", message, { status });
  if (status === 429) return new ApiError("rate", message, { status, retryAfter: retryAfterSeconds(response.headers.get("retry-after")) });
  return new ApiError("http", message || `${status} ${response.statusText}`, { status });
}

async function call(path, key, init = {}) {
  let response;
  try {
    response = await fetch(path, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError("network", error.message);
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

export const getJson = async (path, key) => (await call(path, key)).json();

export const postJson = async (path, key, body) =>
  (await call(path, key, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();

/** The `data:` payloads of a server-sent-events body, as they arrive. */
async function* sseData(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = /\r?\n\r?\n/.exec(buffer))) {
      const event = buffer.slice(0, end.index);
      buffer = buffer.slice(end.index + end[0].length);
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      if (data) yield data;
    }
  }
}

/**
 * A streamed chat completion: first `{type: "open", model, sources}` from the
 * response headers, then `{type: "chunk", chunk}` per SSE frame. An error
 * frame, or a stream that ends without `[DONE]`, throws an ApiError.
 */
export async function* streamCompletion(key, body, signal) {
  const response = await call("/v1/chat/completions", key, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ ...body, stream: true }),
    signal,
  });
  const sources = (response.headers.get("x-docent-sources") ?? "").split(",").filter(Boolean);
  yield { type: "open", model: response.headers.get("x-docent-model"), sources };
  try {
    for await (const data of sseData(response.body)) {
      if (data === "[DONE]") return;
      const payload = JSON.parse(data);
      if (payload.error) throw new ApiError("http", payload.error.message, { status: response.status });
      yield { type: "chunk", chunk: payload };
    }
  } catch (error) {
    if (error instanceof ApiError || error.name === "AbortError") throw error;
    throw new ApiError("network", error.message);
  }
  throw new ApiError("cut", "The connection closed before the answer finished.");
}
