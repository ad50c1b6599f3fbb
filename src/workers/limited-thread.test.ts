import { afterAll, describe, expect, it } from "vitest";
import { createLimitedThread } from "./limited-thread.ts";

type Job = { ms: number; value: string; fail?: boolean };
const script = new URL("../../test/fixtures/busy-thread.mjs", import.meta.url);

describe("a limited thread", () => {
  const thread = createLimitedThread<Job>({ script, timeLimitMs: 300, memoryLimitMb: 64, name: "test" });
  afterAll(() => thread.close());

  it("answers jobs, ends a job over its time limit and starts a new thread for the next", async () => {
    expect(await thread.run({ ms: 1, value: "a" })).toEqual({ result: "a" });
    expect(await thread.run({ ms: 1, value: "b", fail: true })).toEqual({ failed: true });
    expect(await thread.run({ ms: 5_000, value: "slow" })).toEqual({ overLimit: true });
    expect(await thread.run({ ms: 1, value: "c" })).toEqual({ result: "c" });
  });

  it("serves owners in turn: one owner's many jobs do not keep another's waiting behind them all", async () => {
    const order: string[] = [];
    const run = (owner: string, value: string) => thread.run({ ms: 20, value }, { owner }).then(() => order.push(value));
    await Promise.all([run("a", "a1"), run("a", "a2"), run("a", "a3"), run("a", "a4"), run("b", "b1"), run("c", "c1")]);
    expect(order.indexOf("b1")).toBeLessThan(order.indexOf("a3"));
    expect(order.indexOf("c1")).toBeLessThan(order.indexOf("a3"));
    expect(order.filter((v) => v.startsWith("a"))).toEqual(["a1", "a2", "a3", "a4"]);
  });

  it("drops a job whose caller left before it began", async () => {
    const controller = new AbortController();
    const busy = thread.run({ ms: 100, value: "busy" });
    const left = thread.run({ ms: 1, value: "left" }, { signal: controller.signal });
    controller.abort(new Error("client left"));
    await expect(left).rejects.toThrow("client left");
    expect(await busy).toEqual({ result: "busy" });
    await expect(thread.run({ ms: 1, value: "x" }, { signal: controller.signal })).rejects.toThrow("client left");
  });

  it("ends a thread left idle for idleMs, and starts a new one for the next job", async () => {
    const idle = createLimitedThread<Job>({ script, timeLimitMs: 1_000, memoryLimitMb: 64, name: "test", idleMs: 100 });
    try {
      const first = (await idle.run({ ms: 1, value: "threadId" })) as { result: number };
      expect(await idle.run({ ms: 1, value: "threadId" })).toEqual(first); // busy again within idleMs: the same thread
      await new Promise((resolve) => setTimeout(resolve, 300));
      const next = (await idle.run({ ms: 1, value: "threadId" })) as { result: number };
      expect(next.result).not.toBe(first.result);
      expect(await thread.run({ ms: 1, value: "threadId" })).toEqual(await thread.run({ ms: 1, value: "threadId" })); // no idleMs: kept
    } finally {
      await idle.close();
    }
  });
});
