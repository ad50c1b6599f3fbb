import { randomBytes } from "node:crypto";

/**
 * graphql-sse's single-connection mode reserves a stream with the key, then
 * sends the stream and its operations with a token instead. A token stands
 * only for a key id (re-checked on every use, so revocation and expiry hold),
 * lapses after `idleMs` without use, and is accepted only on that endpoint.
 */
export function createStreamTokens({ idleMs = 5 * 60_000, max = 10_000, now = Date.now }: { idleMs?: number; max?: number; now?: () => number } = {}) {
  const tokens = new Map<string, { keyId: string; lastUsed: number }>();
  return {
    issue(keyId: string): string {
      const token = randomBytes(24).toString("base64url");
      // Oldest first: a Map keeps insertion order, and use re-inserts.
      if (tokens.size >= max) tokens.delete(tokens.keys().next().value!);
      tokens.set(token, { keyId, lastUsed: now() });
      return token;
    },
    /** The key id a token stands for, or null when unknown or lapsed. */
    use(token: string): string | null {
      const entry = tokens.get(token);
      if (!entry) return null;
      tokens.delete(token);
      if (now() - entry.lastUsed > idleMs) return null;
      tokens.set(token, { keyId: entry.keyId, lastUsed: now() });
      return entry.keyId;
    },
    revoke(token: string) {
      tokens.delete(token);
    },
  };
}

export type StreamTokens = ReturnType<typeof createStreamTokens>;
