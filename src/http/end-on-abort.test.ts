import { describe, expect, it } from "vitest";
import { endOnAbort } from "./end-on-abort.ts";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const bytes = (text: string) => new TextEncoder().encode(text);

describe("a stream that ends with its key", () => {
  it("ends when the signal aborts, cancels what it relays and says it ended, once", async () => {
    let cancelled = false;
    let ends = 0;
    const body = new ReadableStream<Uint8Array>({ pull: () => sleep(5), cancel: () => void (cancelled = true) });
    const key = new AbortController();
    const reader = endOnAbort(body, key.signal, () => ends++).getReader();
    const read = reader.read();
    await sleep(20);
    key.abort(new Error("revoked"));
    expect((await read).done).toBe(true);
    expect(cancelled).toBe(true);
    await reader.cancel();
    expect(ends).toBe(1);
  });

  it("says it ended when read to the end, when cancelled and when its source fails", async () => {
    let ends = 0;
    const done = endOnAbort(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes("data: 1\n\n"));
          controller.close();
        },
      }),
      new AbortController().signal,
      () => ends++,
    ).getReader();
    while (!(await done.read()).done) {}
    expect(ends).toBe(1);
    await endOnAbort(new ReadableStream<Uint8Array>(), new AbortController().signal, () => ends++).cancel();
    expect(ends).toBe(2);
    const failing = endOnAbort(new ReadableStream<Uint8Array>({ pull: () => Promise.reject(new Error("cut")) }), new AbortController().signal, () => ends++);
    await expect(failing.getReader().read()).rejects.toThrow("cut");
    expect(ends).toBe(3);
  });

  it("is closed at once when its key was already gone", async () => {
    const key = new AbortController();
    key.abort();
    expect((await endOnAbort(new ReadableStream<Uint8Array>(), key.signal).getReader().read()).done).toBe(true);
  });
});
