const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
/** A year: a source re-read less often than that is better synced by hand. */
const MAX_SECONDS = 365 * UNIT_SECONDS.d;

/**
 * A sync interval such as `30m`, `24h` or `7d` (also `45s`) in seconds;
 * `off` (or `0`) is 0, "never"; null for anything else.
 */
export function parseInterval(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === "off" || t === "0" || t === "never") return 0;
  const match = /^([1-9][0-9]{0,8})([smhd])$/.exec(t);
  if (!match) return null;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
  return seconds <= MAX_SECONDS ? seconds : null;
}

/** 86400 → `24h`, 90 → `90s`: the largest unit that divides it. */
export function formatInterval(seconds: number): string {
  if (seconds === 0) return "off";
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3600],
    ["m", 60],
  ] as const)
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}
