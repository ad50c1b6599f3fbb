/**
 * Memoises a pure function of a string in a bounded map, least recently used
 * first out: documentation passages recur across requests, so their derived
 * data (token counts, sentences) is worth keeping.
 */
export function lruMemo<T>(size: number, compute: (key: string) => T): (key: string) => T {
  const memo = new Map<string, T>();
  return (key) => {
    if (memo.has(key)) {
      const value = memo.get(key)!;
      // Most recently used last, so the oldest is the first key.
      memo.delete(key);
      memo.set(key, value);
      return value;
    }
    const value = compute(key);
    memo.set(key, value);
    if (memo.size > size) memo.delete(memo.keys().next().value!);
    return value;
  };
}
