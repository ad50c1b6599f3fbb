import type { z } from "zod";

/**
 * A JSON text column read back through its schema: null when empty, or when it
 * cannot be read (an older shape, a hand edit), so one bad row never fails a listing.
 */
export function storedJson<T>(schema: z.ZodType<T>, text: string | null): T | null {
  if (text === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
