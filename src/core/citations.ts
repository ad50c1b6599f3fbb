/** A citation marker: `[2]`, or a list such as `[1, 3]`. */
export const CITATION_MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/**
 * Renumbers a streamed reply's citation markers in order of first use, so a
 * reply citing [3] then [1] reads [1] then [2], and `url_references` can list
 * the cited pages in that order. Markers may arrive split across deltas
 * ("[" then "2]"): a possible partial marker is held back until it completes.
 */
export function createCitationRenumberer(referenceCount: number) {
  const newNumber = new Map<number, number>();
  const order: number[] = [];
  let held = "";
  const PARTIAL = /\[[\d,\s]{0,16}$/;

  const renumber = (text: string) =>
    text.replace(CITATION_MARKER, (whole, list: string) => {
      const numbers = list.split(/\s*,\s*/).map(Number);
      if (numbers.some((n) => n < 1 || n > referenceCount)) return whole;
      const mapped = numbers.map((n) => {
        if (!newNumber.has(n)) {
          order.push(n);
          newNumber.set(n, order.length);
        }
        return newNumber.get(n)!;
      });
      return `[${mapped.join(", ")}]`;
    });

  return {
    /** Renumbered text that is safe to emit now. */
    push(delta: string): string {
      const text = held + delta;
      const partial = PARTIAL.exec(text);
      held = partial ? partial[0] : "";
      return renumber(partial ? text.slice(0, partial.index) : text);
    },
    /** Whatever was held back, at the end of the reply. */
    flush(): string {
      const rest = renumber(held);
      held = "";
      return rest;
    },
    /** Original reference numbers (1-based) in order of first citation. */
    get order(): readonly number[] {
      return order;
    },
  };
}
