/** Plain text tables for the CLI. */
export function table(rows: Array<Record<string, string | number>>): string {
  if (rows.length === 0) return "";
  const keys = Object.keys(rows[0]!);
  const width = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(width[i]!))
      .join("  ")
      .trimEnd();
  return [line(keys.map((k) => k.toUpperCase())), ...rows.map((r) => line(keys.map((k) => String(r[k]))))].join("\n");
}

export class UsageError extends Error {}
