/** The API-key store port. Secrets never leave `create`. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  /** The non-secret start of the key, for recognising it in lists. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** The knowledge sources this key may use; null = every source. Never empty. */
  sourceIds: string[] | null;
  /** When the key stops working; null = never. */
  expiresAt: Date | null;
}

export interface NewKeyOptions {
  /** Limits the key to these sources (at least one); absent or null = every source. */
  sourceIds?: string[] | null;
  /** Must lie in the future; absent or null = never expires. */
  expiresAt?: Date | null;
}

export interface KeyStore {
  /** Creates a key; the returned `key` is the only time the secret is available. */
  create(name: string, options?: NewKeyOptions): Promise<ApiKeyInfo & { key: string }>;
  /**
   * Creates the store's first key, or nothing (null) when it holds a key,
   * revoked or expired ones too: made once however many processes sharing the
   * store ask at the same moment (replicas starting together). A key made
   * with `create` in that same moment is no first key and does not stop one.
   */
  createFirst(name: string): Promise<(ApiKeyInfo & { key: string }) | null>;
  list(): Promise<ApiKeyInfo[]>;
  revoke(id: string): Promise<boolean>;
  /** The active key matching `presented`, or null (unknown, revoked or expired). */
  verify(presented: string): Promise<ApiKeyInfo | null>;
  /**
   * The key with this id if it is active now, or null (unknown, revoked or
   * expired): re-checks a key that was verified earlier, e.g. the key a
   * stream token stands for. One lookup by primary key.
   */
  getActive(id: string): Promise<ApiKeyInfo | null>;
  count(): Promise<number>;
}

export type KeyStatus = "active" | "revoked" | "expired";

/** A key's status at `now`: revocation wins over expiry; expiry is inclusive. */
export function keyStatus(key: Pick<ApiKeyInfo, "revokedAt" | "expiresAt">, now: Date = new Date()): KeyStatus {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}
