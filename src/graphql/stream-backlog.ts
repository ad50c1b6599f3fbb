/** How far an open single-connection stream's reader may fall behind what its operations produced. */
export const MAX_STREAM_BACKLOG_BYTES = 16 * 1024 * 1024;

/**
 * graphql-sse keeps every result sent into a single-connection stream until
 * the stream's reader takes it: a client that sends operations and never
 * reads would hold the server's memory without bound (90 KB an introspection
 * query, hundreds of MB in minutes). Each open stream counts what its
 * operations queued against what its reader took, and is closed when it falls
 * `maxBytes` behind: the client reconnects as after any dropped stream.
 */
export function createStreamBacklogs(maxBytes = MAX_STREAM_BACKLOG_BYTES) {
  const open = new Map<string, { behind: number; close: AbortController }>();
  return {
    /** The open stream's body, counting what its reader takes; `signal` aborts when it falls too far behind, `end` forgets it. */
    watch(token: string, body: ReadableStream<Uint8Array>) {
      const entry = { behind: 0, close: new AbortController() };
      open.set(token, entry);
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            entry.behind -= chunk.byteLength;
            controller.enqueue(chunk);
          },
        }),
      );
      const end = () => {
        if (open.get(token) === entry) open.delete(token);
      };
      return { body: counted, signal: entry.close.signal, end };
    },
    /** A result of about `bytes` queued into the stream of `token` (none for a distinct connection). */
    queued(token: string | null, bytes: number) {
      const entry = token === null ? undefined : open.get(token);
      if (!entry) return;
      entry.behind += bytes;
      if (entry.behind > maxBytes) entry.close.abort(new Error("The stream's reader fell too far behind."));
    },
  };
}

export type StreamBacklogs = ReturnType<typeof createStreamBacklogs>;
