import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { badRequest, DocentError } from "../core/errors.ts";
import { errorResponse } from "./error-response.ts";
import { DEFAULT_JSON_SHAPE, jsonShapeProblem } from "./json-shape.ts";

/**
 * An oversized body is read to its end (up to this) and dropped before the 413 is sent: a reply
 * sent while the client still writes lets it reuse a connection the server is about to close,
 * and the client's next request, an innocent one, fails.
 */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

async function discard(body: ReadableStream<Uint8Array> | null, maxBytes: number) {
  if (!body || body.locked) return;
  const reader = body.getReader();
  for (let read = 0; read <= maxBytes; ) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.length;
  }
  await reader.cancel();
}

/**
 * MAX_BODY_BYTES for every interface (413, by default in OpenAI's error
 * shape; `refuse` gives another protocol's), then the body's JSON shape
 * (depth, number of values) before anything parses it. `rereadable: false`
 * for routes that read the body only through `c.req.text()` (cached here):
 * they need no second `Request` holding it, whose construction costs about
 * 0.2 ms a request.
 */
export const limitBody = (
  maxBytes: number,
  { refuse = errorResponse, rereadable = true }: { refuse?: (error: DocentError, c: Context) => Response | Promise<Response>; rereadable?: boolean } = {},
): MiddlewareHandler => {
  const size = bodyLimit({
    maxSize: maxBytes,
    onError: async (c) => {
      // A client that leaves meanwhile reads no answer either.
      await discard(c.req.raw.body, DRAIN_MAX_BYTES).catch(() => {});
      return refuse(
        new DocentError("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes (MAX_BODY_BYTES).`, { reason: "request_too_large" }),
        c,
      );
    },
  });
  return async (c, next) => {
    const framing = bodyFraming(c);
    // No body: read (empty) all the same where a handler passes the raw request on (MCP's SDK clones it), so it gets one it can read.
    if (framing === "bodiless method" || (framing === "none" && !rereadable)) return next();
    // Only a body has a coding: a bodiless request (a stream's reservation, a session's DELETE) passes whatever its headers say.
    const coding = framing === "none" ? undefined : contentCoding(c);
    if (coding) {
      await discard(c.req.raw.body, DRAIN_MAX_BYTES).catch(() => {});
      const refused = await refuse(
        new DocentError("UNSUPPORTED_MEDIA_TYPE", `The request body is sent with Content-Encoding ${coding}; send it uncompressed, with no Content-Encoding.`, {
          reason: "unsupported_content_encoding",
        }),
        c,
      );
      // RFC 9110 §12.5.3: a 415 for a content coding says which codings are taken.
      refused.headers.set("accept-encoding", "identity");
      return refused;
    }
    // A declared length (Node's parser reads exactly that many bytes) is checked without reading: the body is then
    // read straight from Node's request. Only a chunked body is counted as it streams, through the web Request.
    if (typeof framing === "number" && framing > maxBytes) return size(c, async () => {});
    let text: string;
    try {
      if (framing === "chunked") {
        let within = false;
        const refused = await size(c, async () => {
          within = true;
        });
        if (!within) return refused;
      }
      text = await c.req.text();
    } catch (error) {
      // The client left while sending its body: gone (499), not a failure of the service's.
      if (!leftMidBody(error)) throw error;
      return refuse(new DocentError("CLIENT_CLOSED_REQUEST", "The client closed the connection while sending the request body.", { cause: error }), c);
    }
    const problem = jsonShapeProblem(text);
    if (problem) return refuse(jsonShapeError(problem), c);
    // Read once: the text stays cached for c.req.text(), and handlers that read the raw request get it again.
    if (rereadable) c.req.raw = new Request(c.req.raw, { body: text });
    return next();
  };
};

/**
 * How a request's body is framed, told from its method and headers as HTTP/1.1 tells it: a method that has none,
 * none, chunked, or a declared length. Asking the request for its `body` instead would make @hono/node-server build a web `Request`
 * around Node's, the body a web stream (about half a millisecond of CPU a request here, in paired runs).
 */
function bodyFraming(c: Context): "bodiless method" | "none" | "chunked" | number {
  if (c.req.method === "GET" || c.req.method === "HEAD") return "bodiless method";
  if (c.req.header("transfer-encoding") !== undefined) return "chunked";
  const length = Number(c.req.header("content-length") ?? 0);
  return length > 0 ? length : "none";
}

/**
 * A content coding the request's body is sent in, other than none: bodies are
 * read as they come, so a compressed one would be parsed as JSON and refused as
 * not JSON, which it is not (RFC 9110 §15.5.16: 415 for a coding not supported).
 * Its size limit would count compressed bytes, too.
 */
function contentCoding(c: Context): string | undefined {
  const codings = (c.req.header("content-encoding") ?? "")
    .split(",")
    .map((coding) => coding.trim())
    .filter((coding) => coding !== "" && coding.toLowerCase() !== "identity");
  return codings.length > 0 ? codings.join(", ").slice(0, 40) : undefined;
}

/** Node's error for a request body cut short by its client (the connection closed or reset before its end). */
const leftMidBody = (error: unknown) =>
  error instanceof Error &&
  ((error as { code?: string }).code === "ECONNRESET" || error.message === "aborted" || error.message === "Client connection prematurely closed.");

/** The refusal of JSON over a shape limit (a body's, or a GraphQL GET's query-string variables). */
export function jsonShapeError(problem: "depth" | "values"): DocentError {
  return problem === "depth"
    ? badRequest(`The request nests JSON more than ${DEFAULT_JSON_SHAPE.maxDepth} levels deep.`, null, "json_too_deep")
    : badRequest(`The request holds more than ${DEFAULT_JSON_SHAPE.maxValues} JSON values.`, null, "json_too_large");
}
