import { randomBytes } from "node:crypto";

/**
 * graphql-sse's single-connection mode reserves a stream with the key, then
 * sends the stream and its operations with a token instead. A token stands
 * only for a key id (re-checked on every use, so revocation and expiry hold),
 * lapses after `idleMs` without use (never while its stream is open: `hold`),
 * and is accepted only on that endpoint.
 */
export function createStreamTokens({
  idleMs = 5 * 60_000,
  max = 10_000,
  perKey = 32,
  now = Date.now,
  onDrop = () => {},
}: {
  idleMs?: number;
  max?: number;
  perKey?: number;
  now?: () => number;
  /** Called with each token given up (lapsed, evicted or revoked), so its reservation can be let go too. */
  onDrop?: (token: string) => void;
} = {}) {
  /** Each token's key, when it was last used, and how many open streams hold it. */
  type Entry = { keyId: string; lastUsed: number; holds: number };
  const tokens = new Map<string, Entry>();
  /** Tokens per key. */
  const held = new Map<string, number>();
  const remove = (token: string) => {
    const entry = tokens.get(token);
    if (!entry) return;
    tokens.delete(token);
    const left = (held.get(entry.keyId) ?? 1) - 1;
    if (left > 0) held.set(entry.keyId, left);
    else held.delete(entry.keyId);
    onDrop(token);
  };
  const lapsed = (entry: Entry) => entry.holds === 0 && now() - entry.lastUsed > idleMs;
  /** Gives up the lapsed tokens at the table's old end (least recently used first), passing over held ones. */
  const sweep = () => {
    for (const [token, entry] of tokens) {
      if (entry.holds > 0) continue;
      if (!lapsed(entry)) return;
      remove(token);
    }
  };
  // Re-inserted: the most recently used go last.
  const touch = (token: string, entry: Entry) => {
    tokens.delete(token);
    entry.lastUsed = now();
    tokens.set(token, entry);
  };
  /** Gives up the least recently used token that `may` allows and no open stream holds. */
  const evictOldest = (may: (entry: Entry) => boolean) => {
    for (const [oldest, entry] of tokens)
      if (entry.holds === 0 && may(entry)) {
        remove(oldest);
        return;
      }
  };
  return {
    issue(keyId: string): string {
      const token = randomBytes(24).toString("base64url");
      // A token never used again lapses here, so what it reserved does not wait for the table to fill.
      sweep();
      // A key past its share gives up its own least recently used token: one key reserving
      // streams in a loop cannot push every other key's tokens out of the table.
      // A token whose stream is open is never given up: its stream's operations are sent with it.
      if ((held.get(keyId) ?? 0) >= perKey) evictOldest((entry) => entry.keyId === keyId);
      // Oldest first: a Map keeps insertion order, and use re-inserts.
      if (tokens.size >= max) evictOldest(() => true);
      tokens.set(token, { keyId, lastUsed: now(), holds: 0 });
      held.set(keyId, (held.get(keyId) ?? 0) + 1);
      return token;
    },
    /** The key id a token stands for, or null when unknown or lapsed. */
    use(token: string): string | null {
      const entry = tokens.get(token);
      if (!entry) return null;
      if (lapsed(entry)) {
        remove(token);
        return null;
      }
      touch(token, entry);
      return entry.keyId;
    },
    /**
     * Keeps a token from lapsing while its stream is open (operations may be
     * sent into it with the token at any time); the returned function lets go,
     * once, and the idle time counts from then.
     */
    hold(token: string): () => void {
      const entry = tokens.get(token);
      if (!entry) return () => {};
      entry.holds++;
      touch(token, entry);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        entry.holds--;
        if (tokens.get(token) === entry) touch(token, entry);
      };
    },
    /** Whether the token was issued and its stream is not open (held): no operation may be sent into it yet. */
    unopened(token: string): boolean {
      return tokens.get(token)?.holds === 0;
    },
    revoke(token: string) {
      remove(token);
    },
  };
}

export type StreamTokens = ReturnType<typeof createStreamTokens>;
