import { serialReload } from "./serial-reload.ts";

/**
 * What a cached store holds: `load`'s result, read on first use and again on
 * `reload` (one load at a time, see serial-reload.ts). `changed` wraps a
 * write's result: this process reads its own change before the write returns.
 */
export function heldInMemory<T>(load: () => Promise<T>) {
  let held: T | undefined;
  const reload = serialReload(async () => {
    held = await load();
  });
  return {
    reload,
    current: async (): Promise<T> => {
      if (held === undefined) await reload();
      return held!;
    },
    changed: async <R>(result: R): Promise<R> => {
      await reload();
      return result;
    },
  };
}
