import { describe, expect, it } from "vitest";
import { holdUntilBodyEnds } from "./rate-limit.ts";

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A lease that counts its releases. */
function countingLease() {
  const lease = { releases: 0, release: async () => void lease.releases++ };
  return lease;
}

describe("holdUntilBodyEnds", () => {
  it("releases once the body has been read to its end, not before", async () => {
    const lease = countingLease();
    let close!: () => void;
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(encoder.encode("data: 1\n\n"));
        close = () => c.close();
      },
    });
    const wrapped = holdUntilBodyEnds(new Response(source, { headers: { "x-kept": "yes" } }), lease);
    expect(wrapped.headers.get("x-kept")).toBe("yes");
    const reader = wrapped.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 1\n\n");
    await sleep(10);
    expect(lease.releases).toBe(0);
    close();
    expect((await reader.read()).done).toBe(true);
    expect(lease.releases).toBe(1);
  });

  it("releases when the client cancels with no read pending", async () => {
    const lease = countingLease();
    let sourceCancelled = false;
    const source = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(encoder.encode("data: 1\n\n")),
      cancel: () => void (sourceCancelled = true),
    });
    const wrapped = holdUntilBodyEnds(new Response(source), lease);
    // The wrapper has pulled the one chunk and waits for a reader: nothing is pending.
    await sleep(10);
    await wrapped.body!.cancel();
    expect(lease.releases).toBe(1);
    expect(sourceCancelled).toBe(true);
  });

  it("releases when the client cancels during a read, and when the body fails", async () => {
    const waiting = countingLease();
    const pending = holdUntilBodyEnds(new Response(new ReadableStream<Uint8Array>()), waiting);
    await sleep(10);
    await pending.body!.cancel();
    expect(waiting.releases).toBe(1);

    const failing = countingLease();
    const broken = holdUntilBodyEnds(new Response(new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error("cut")) })), failing);
    await expect(broken.text()).rejects.toThrow(/cut/);
    expect(failing.releases).toBe(1);
  });

  it("releases a response without a body at once", async () => {
    const lease = countingLease();
    holdUntilBodyEnds(new Response(null, { status: 204 }), lease);
    expect(lease.releases).toBe(1);
  });
});
