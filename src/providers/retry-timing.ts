/** When to try a provider again: its own Retry-After, else exponential backoff with jitter. */

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

const header = (headers: HeaderSource, name: string): string | undefined => {
  if (typeof (headers as { get?: unknown }).get === "function") return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Seconds the provider asked us to wait: `retry-after-ms` (OpenAI's, more
 * precise) before `retry-after` (seconds or an HTTP date). Null when absent
 * or unreadable.
 */
export function retryAfterSeconds(headers: HeaderSource | null | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = Number.parseFloat(header(headers, "retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const value = header(headers, "retry-after")?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}

/** The first wait; each retry doubles it, up to the cap (the SDKs' own figures: 0.5 s doubling to 8 s). */
export const BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 8000;

/**
 * The wait before retry number `retry` (0 for the first): "equal jitter",
 * half fixed and half random, so callers that failed together spread out
 * while each still backs off.
 */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retry);
  return ceiling / 2 + random() * (ceiling / 2);
}

/** The wait before a retry: never shorter than what the provider asked for. */
export function retryDelayMs(retry: number, retryAfter: number | null, random: () => number = Math.random): number {
  return Math.max(backoffMs(retry, random), (retryAfter ?? 0) * 1000);
}
