import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * API keys look like `dk_` + 43 base64url characters (256 random bits), so
 * secret scanners can recognise a leaked one. Only a SHA-256 hash is stored;
 * the first characters (`lookup`) find the row without revealing the secret.
 */
export const KEY_PREFIX = "dk_";
const LOOKUP_LENGTH = KEY_PREFIX.length + 8;
const KEY_SHAPE = /^dk_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

export const keyLookup = (key: string) => key.slice(0, LOOKUP_LENGTH);

export const hashKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

export const looksLikeKey = (key: string) => KEY_SHAPE.test(key);

/** Compares a presented key with a stored hash in constant time. */
export function keyMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashKey(presented), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
