const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** A hundred years: far enough for any real key, near enough that every date stays printable. */
const MAX_MS = 36_500 * UNIT_MS.d;

/**
 * Parses a key lifetime such as `90m`, `12h` or `30d` into milliseconds;
 * null for anything else (zero, negative, fractions, other units, over 36500d).
 */
export function parseDuration(text: string): number | null {
  const match = /^([1-9][0-9]{0,8})([mhd])$/.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms <= MAX_MS ? ms : null;
}
