import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { deadlineSignal } from "./deadline-signal.ts";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("deadlineSignal", () => {
  it("times out even after garbage collection ran (AbortSignal.any over AbortSignal.timeout does not, in Node 20)", async () => {
    const parent = new AbortController();
    const { signal } = deadlineSignal(100, parent.signal);
    for (let i = 0; i < 5; i++) {
      gc();
      await sleep(20);
    }
    await sleep(200);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("aborts with its parent's reason, and once disposed neither the timer nor the parent abort it", async () => {
    const parent = new AbortController();
    const linked = deadlineSignal(10_000, parent.signal);
    parent.abort(new Error("caller left"));
    expect((linked.signal.reason as Error).message).toBe("caller left");

    const other = new AbortController();
    const done = deadlineSignal(50, other.signal);
    done.dispose();
    other.abort();
    await sleep(100);
    expect(done.signal.aborted).toBe(false);
  });
});
