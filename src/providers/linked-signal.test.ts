import { describe, expect, it } from "vitest";
import { linkedSignal } from "./linked-signal.ts";

describe("linked signal", () => {
  it("aborts with the reason of whichever parent aborts first", () => {
    const a = new AbortController();
    const b = new AbortController();
    const { signal } = linkedSignal(a.signal, b.signal);
    expect(signal.aborted).toBe(false);
    b.abort(new Error("deadline"));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("deadline");
    a.abort(new Error("later"));
    expect((signal.reason as Error).message).toBe("deadline");
  });

  it("is aborted at once when a parent already is, and stops listening once disposed", () => {
    const done = new AbortController();
    done.abort("gone");
    expect(linkedSignal(new AbortController().signal, done.signal).signal.reason).toBe("gone");
    const parent = new AbortController();
    const { signal, dispose } = linkedSignal(parent.signal);
    dispose();
    parent.abort();
    expect(signal.aborted).toBe(false);
  });
});
