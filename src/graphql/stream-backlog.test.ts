import { describe, expect, it } from "vitest";
import { createStreamBacklogs } from "./stream-backlog.ts";

/** A body that yields `bytes` bytes once read. */
const bodyOf = (bytes: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(bytes));
      controller.close();
    },
  });

describe("stream backlogs", () => {
  it("close a stream whose reader falls behind, with no credit saved up from reading pings and framing", async () => {
    const backlogs = createStreamBacklogs(100, 1000);
    const watched = backlogs.watch("t", bodyOf(5000));
    // The reader takes 5,000 bytes (pings, event framing) before any result is counted.
    const reader = watched.body.getReader();
    while (!(await reader.read()).done);
    backlogs.queued("t", 90);
    expect(watched.signal.aborted).toBe(false);
    backlogs.queued("t", 20);
    expect(watched.signal.aborted).toBe(true);
  });

  it("close the stream that takes all streams' backlog past its bound, and forget an ended one", () => {
    const backlogs = createStreamBacklogs(100, 150);
    const [a, b] = [backlogs.watch("a", bodyOf(0)), backlogs.watch("b", bodyOf(0))];
    backlogs.queued("a", 80);
    backlogs.queued("b", 80);
    expect(a.signal.aborted).toBe(false);
    expect(b.signal.aborted).toBe(true);
    b.end();
    expect(backlogs.watching("b")).toBe(false);
    backlogs.queued("a", 15);
    expect(a.signal.aborted).toBe(false);
  });
});
