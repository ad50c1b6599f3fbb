/** The API-key store port. Secrets never leave `create`. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  /** The non-secret start of the key, for recognising it in lists. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** The sources the key may use; null for every source. */
  sourceIds?: readonly string[] | null;
  expiresAt?: Date | null;
}

export interface KeyStore {
  /** Creates a key; the returned `key` is the only time the secret is available. */
  create(name: string): Promise<ApiKeyInfo & { key: string }>;
  list(): Promise<ApiKeyInfo[]>;
  revoke(id: string): Promise<boolean>;
  /** The active key matching `presented`, or null (unknown or revoked). */
  verify(presented: string): Promise<ApiKeyInfo | null>;
  /** A key by id, whatever its state (see `isActive`), or null. */
  get(id: string): Promise<ApiKeyInfo | null>;
  count(): Promise<number>;
}
