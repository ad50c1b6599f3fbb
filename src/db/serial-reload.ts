/**
 * Runs `load` one at a time. A caller asking while a load is running gets a
 * fresh load that starts after it (the running one may have read before the
 * caller's change), shared by every caller asking meanwhile.
 */
export function serialReload(load: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const reload = (): Promise<void> => {
    if (!running) {
      running = load().finally(() => {
        running = null;
      });
      return running;
    }
    next ??= running
      .catch(() => {})
      .then(() => {
        next = null;
        return reload();
      });
    return next;
  };
  return reload;
}
