/**
 * A signal that aborts after `ms` (with a TimeoutError) or when `parent` does
 * (with its reason), and `dispose` to stop the timer and detach from the
 * parent once the work is over. Written out because
 * `AbortSignal.any([AbortSignal.timeout(ms), parent])` in Node 20 holds the
 * time-out signal only weakly: once garbage collection takes it, the time-out
 * never fires (nodejs/node#55428), and a crawl of a page that sends a byte
 * every two seconds ran for ever. Here the timer holds the controller.
 */
export function deadlineSignal(ms: number, parent?: AbortSignal): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  if (parent?.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, dispose: () => {} };
  }
  const timer = setTimeout(() => controller.abort(new DOMException(`The operation timed out after ${ms} ms.`, "TimeoutError")), ms);
  const onAbort = () => controller.abort(parent!.reason);
  parent?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onAbort);
    },
  };
}
