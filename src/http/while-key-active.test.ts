import { describe, expect, it } from "vitest";
import { whileKeyActive } from "./while-key-active.ts";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const bytes = (text: string) => new TextEncoder().encode(text);

describe("an event stream that ends with its key", () => {
  it("ends once the key is no longer active, and cancels what it relays", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({ pull: () => sleep(5), cancel: () => void (cancelled = true) });
    let active = true;
    const reader = whileKeyActive(body, async () => active, 10).getReader();
    await sleep(30);
    active = false;
    expect((await reader.read()).done).toBe(true);
    expect(cancelled).toBe(true);
  });

  it("closes once when the stream ends while a check is under way, however slow the checks", async () => {
    const failures: unknown[] = [];
    const record = (error: unknown) => failures.push(error);
    process.on("unhandledRejection", record);
    try {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes("data: 1\n\n"));
          setTimeout(() => controller.close(), 15);
        },
      });
      // Each check takes longer than the interval and then says the key is gone: the stream has ended by then.
      const reader = whileKeyActive(body, () => sleep(40).then(() => false), 10).getReader();
      while (!(await reader.read()).done) {}
      await sleep(150);
    } finally {
      process.off("unhandledRejection", record);
    }
    expect(failures).toEqual([]);
  });
});
