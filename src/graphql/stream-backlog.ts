/** How far an open single-connection stream's reader may fall behind what its operations produced, in bytes. */
export const MAX_STREAM_BACKLOG_BYTES = 4 * 1024 * 1024;
/** How far all open streams together may fall behind: a key may hold 32 streams, and there are many keys. */
export const MAX_TOTAL_BACKLOG_BYTES = 128 * 1024 * 1024;

/**
 * graphql-sse keeps every result sent into a single-connection stream until
 * the stream's reader takes it: a client that sends operations and never
 * reads would hold the server's memory without bound (90 KB an introspection
 * query, hundreds of MB in minutes). Each open stream counts the bytes its
 * operations queued against those its reader took (never below nothing: a
 * reader cannot save up credit), and a stream is closed when it falls
 * `maxBytes` behind, or when it adds to a backlog of all streams past
 * `maxTotalBytes`: the client reconnects as after any dropped stream.
 */
export function createStreamBacklogs(maxBytes = MAX_STREAM_BACKLOG_BYTES, maxTotalBytes = MAX_TOTAL_BACKLOG_BYTES) {
  const open = new Map<string, { behind: number; close: AbortController }>();
  let total = 0;
  const add = (entry: { behind: number }, bytes: number) => {
    const before = entry.behind;
    entry.behind = Math.max(0, entry.behind + bytes);
    total += entry.behind - before;
  };
  return {
    /** The open stream's body, counting what its reader takes; `signal` aborts when it falls too far behind, `end` forgets it. */
    watch(token: string, body: ReadableStream<Uint8Array>) {
      const entry = { behind: 0, close: new AbortController() };
      open.set(token, entry);
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            add(entry, -chunk.byteLength);
            controller.enqueue(chunk);
          },
        }),
      );
      const end = () => {
        if (open.get(token) !== entry) return;
        open.delete(token);
        add(entry, -entry.behind);
      };
      return { body: counted, signal: entry.close.signal, end };
    },
    /** Whether results sent with this token go into an open stream (only those are counted). */
    watching: (token: string | null) => token !== null && open.has(token),
    /** A result of `bytes` (UTF-8) queued into the stream of `token`. */
    queued(token: string, bytes: number) {
      const entry = open.get(token);
      if (!entry) return;
      add(entry, bytes);
      if (entry.behind > maxBytes || total > maxTotalBytes) entry.close.abort(new Error("The stream's reader fell too far behind."));
    },
  };
}

export type StreamBacklogs = ReturnType<typeof createStreamBacklogs>;
