import { DocentError } from "../core/errors.ts";
import type { ApiKeyInfo, KeyStore } from "../core/key-store.ts";

/** Extracts the key from `Authorization: Bearer <key>`; null when absent or malformed. */
export function bearerToken(header: string | undefined | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match ? match[1]! : null;
}

export const missingKey = () =>
  new DocentError("UNAUTHORIZED", "Missing API key: send 'Authorization: Bearer <key>'. Create a key with 'npm run cli -- keys create --name NAME'.", {
    reason: "missing_api_key",
  });

const malformedKey = () =>
  new DocentError("UNAUTHORIZED", "Malformed Authorization header: send the key alone after 'Bearer ', as 'Authorization: Bearer <key>'.", {
    reason: "invalid_api_key",
  });

export const invalidKey = () => new DocentError("UNAUTHORIZED", "Incorrect, revoked or expired API key provided.", { reason: "invalid_api_key" });

/** Resolves a request's key from its Authorization header or throws UNAUTHORIZED: shared by every interface. */
export async function authenticate(keys: KeyStore, header: string | undefined | null): Promise<ApiKeyInfo> {
  const token = bearerToken(header);
  // A Bearer header with more than a key after it did send a key, not none: say what is wrong with it.
  if (!token && /^Bearer\s+\S/i.test(header ?? "")) throw malformedKey();
  if (!token) throw missingKey();
  const key = await keys.verify(token);
  if (!key) throw invalidKey();
  return key;
}
