const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;
/** Ten years back is as far as any report needs to look. */
const MAX_BACK_MS = 3650 * UNIT_MS.d;

/**
 * The start of a reporting window: `7d`, `24h`, `2w` back from `now`, or a
 * UTC date `YYYY-MM-DD` (its midnight). Null for anything else.
 */
export function parseSince(text: string, now: Date = new Date()): Date | null {
  const trimmed = text.trim();
  const back = /^([1-9][0-9]{0,5})([hdw])$/.exec(trimmed);
  if (back) {
    const ms = Number(back[1]) * UNIT_MS[back[2] as keyof typeof UNIT_MS];
    return ms <= MAX_BACK_MS ? new Date(now.getTime() - ms) : null;
  }
  return parseDay(trimmed);
}

/** A UTC date `YYYY-MM-DD` as its midnight; null when it is not a real date. */
export function parseDay(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const date = new Date(`${text}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text ? null : date;
}

export const SINCE_HELP = "a span back from now such as 24h, 7d or 2w, or a UTC date such as 2026-11-01";
