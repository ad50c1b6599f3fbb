import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { ChatPart, OpenedCompletion } from "./chat-part.ts";
import type { ChatCompletionRequest } from "./chat-request.ts";
import type { CompletionOutcome, RequestTrace } from "./completion-outcome.ts";
import { DocentError } from "./errors.ts";
import { type CompletionOpener, runCompletion } from "./run-completion.ts";

const request: ChatCompletionRequest = { model: "agent", messages: [{ role: "user", content: "q" }] };
const usage = { promptTokens: 1, completionTokens: 1, reasoningTokens: 0 };

/** An engine whose parts are given, recording the signal it was opened with. */
function engineWith(parts: (signal: AbortSignal) => AsyncIterable<ChatPart>, fail?: DocentError) {
  const seen: { signal?: AbortSignal; scope?: unknown } = {};
  const engine: CompletionOpener = {
    async open(_request, { signal, scope }) {
      seen.signal = signal;
      seen.scope = scope;
      if (fail) throw fail;
      const opened: OpenedCompletion = { model: "agent", provider: "p", modelId: "m", sources: [], references: [], parts: parts(signal) };
      return opened;
    },
  };
  return { engine, seen };
}

async function* reply(): AsyncGenerator<ChatPart> {
  yield { type: "text-delta", delta: "Hello " };
  yield { type: "text-delta", delta: "world." };
  yield { type: "finish", finishReason: "stop", usage };
}

async function* endless(signal: AbortSignal): AsyncGenerator<ChatPart> {
  while (!signal.aborted) {
    yield { type: "text-delta", delta: "more " };
    await new Promise((r) => setTimeout(r, 1));
  }
}

const listeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

describe("runCompletion", () => {
  it("collects the parts, passes the scope, and removes its abort listener", async () => {
    const caller = new AbortController();
    const { engine, seen } = engineWith(reply);
    const run = await runCompletion(engine, request, { signal: caller.signal, caller: { scope: ["a"] } });
    expect(listeners(caller.signal)).toBe(1);
    const completion = await run.collect();
    expect(completion.choices[0]!.message.content).toBe("Hello world.");
    expect(seen.scope).toEqual(["a"]);
    expect(listeners(caller.signal)).toBe(0);
  });

  it("removes the listener when opening fails, and throws the DocentError", async () => {
    const caller = new AbortController();
    const { engine, seen } = engineWith(reply, new DocentError("NOT_FOUND", "no such source"));
    await expect(runCompletion(engine, request, { signal: caller.signal })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(listeners(caller.signal)).toBe(0);
    expect(seen.signal!.aborted).toBe(true);
  });

  it("throws an in-stream error from collect and removes the listener", async () => {
    const caller = new AbortController();
    const { engine } = engineWith(async function* () {
      yield { type: "text-delta", delta: "partial" };
      yield { type: "error", error: new DocentError("BAD_GATEWAY", "cut") };
    });
    const run = await runCompletion(engine, request, { signal: caller.signal });
    await expect(run.collect()).rejects.toMatchObject({ code: "BAD_GATEWAY" });
    expect(listeners(caller.signal)).toBe(0);
  });

  it("stops generation when a stream is abandoned, and removes the listener", async () => {
    const caller = new AbortController();
    const { engine, seen } = engineWith(endless);
    const run = await runCompletion(engine, request, { signal: caller.signal });
    let n = 0;
    for await (const event of run.chunks()) if (event.type === "chunk" && ++n === 3) break;
    expect(seen.signal!.aborted).toBe(true);
    expect(listeners(caller.signal)).toBe(0);
  });

  it("stops generation when the caller's signal aborts mid-stream", async () => {
    const caller = new AbortController();
    const { engine, seen } = engineWith(endless);
    const run = await runCompletion(engine, request, { signal: caller.signal });
    let n = 0;
    for await (const _ of run.parts()) if (++n === 2) caller.abort();
    expect(seen.signal!.aborted).toBe(true);
    expect(listeners(caller.signal)).toBe(0);
  });

  it("stops generation when the caller's key is lost, ending with that refusal, and removes both listeners", async () => {
    const request_ = new AbortController();
    const key = new AbortController();
    const { engine, seen } = engineWith(endless);
    const run = await runCompletion(engine, request, { signal: request_.signal, caller: { keySignal: key.signal } });
    const parts: ChatPart[] = [];
    for await (const part of run.parts()) {
      parts.push(part);
      if (parts.length === 2) key.abort(new DocentError("UNAUTHORIZED", "Incorrect, revoked or expired API key provided."));
    }
    expect(seen.signal!.aborted).toBe(true);
    expect(parts.at(-1)).toMatchObject({ type: "error", error: { code: "UNAUTHORIZED" } });
    expect(parts.filter((p) => p.type === "text-delta")).toHaveLength(2);
    expect([listeners(request_.signal), listeners(key.signal)]).toEqual([0, 0]);
    // Collected, the refusal is thrown.
    const key2 = new AbortController();
    key2.abort(new DocentError("UNAUTHORIZED", "revoked"));
    const lost = await runCompletion(engineWith(endless).engine, request, { caller: { keySignal: key2.signal } });
    await expect(lost.collect()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("sends nothing more once the reply has ended: a key lost after the finish part changes nothing", async () => {
    const key = new AbortController();
    const run = await runCompletion(engineWith(reply).engine, request, { caller: { keySignal: key.signal } });
    const events: string[] = [];
    for await (const event of run.chunks({ includeUsage: true })) {
      events.push(event.type);
      // A slow client takes the finish chunk; meanwhile the key is revoked.
      if (event.type === "chunk" && event.chunk.choices[0]?.finish_reason) key.abort(new DocentError("UNAUTHORIZED", "revoked"));
    }
    expect(events).not.toContain("error");
  });

  describe("with a trace", () => {
    /** A trace that records outcomes, resolving `complete` only when `hold` is released. */
    function traceOf() {
      const outcomes: CompletionOutcome[] = [];
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      const trace: RequestTrace = {
        requestId: "req-1",
        interface: "rest",
        keyId: "key-1",
        async complete(outcome) {
          outcomes.push(outcome);
          await held;
        },
      };
      return { trace, outcomes, release };
    }

    it("reports one outcome with what the caller got, before the finish part is passed on", async () => {
      const { trace, outcomes, release } = traceOf();
      const run = await runCompletion(engineWith(reply).engine, request, { caller: { trace } });
      const seen: string[] = [];
      const reading = (async () => {
        for await (const part of run.parts()) seen.push(part.type);
      })();
      await new Promise((r) => setTimeout(r, 20));
      // The finish part waits for the outcome to be reported.
      expect(seen).toEqual(["text-delta", "text-delta"]);
      expect(outcomes).toHaveLength(1);
      release();
      await reading;
      expect(seen).toEqual(["text-delta", "text-delta", "finish"]);
      expect(outcomes).toHaveLength(1);
      expect(outcomes[0]).toMatchObject({
        requestId: "req-1",
        interface: "rest",
        keyId: "key-1",
        completionId: run.meta.id,
        model: "agent",
        status: "completed",
        finishReason: "stop",
        usage,
        question: "q",
        answer: "Hello world.",
        error: null,
      });
      expect(outcomes[0]!.timings.firstTokenMs).not.toBeNull();
    });

    it("reports a failure in the stream", async () => {
      const { trace, outcomes, release } = traceOf();
      release();
      const { engine } = engineWith(async function* () {
        yield { type: "text-delta", delta: "partial" };
        yield { type: "error", error: new DocentError("BAD_GATEWAY", "cut") };
      });
      await expect((await runCompletion(engine, request, { caller: { trace } })).collect()).rejects.toMatchObject({ code: "BAD_GATEWAY" });
      expect(outcomes).toMatchObject([{ status: "failed", error: { code: "BAD_GATEWAY" }, answer: "partial", finishReason: null }]);
    });

    it("reports an abandoned stream once, whether it was read or never started", async () => {
      const { trace, outcomes, release } = traceOf();
      release();
      const run = await runCompletion(engineWith(endless).engine, request, { caller: { trace } });
      let n = 0;
      for await (const event of run.chunks()) if (event.type === "chunk" && ++n === 3) break;
      const unread = await runCompletion(engineWith(endless).engine, request, { caller: { trace } });
      unread.abort();
      await new Promise((r) => setTimeout(r, 0));
      expect(outcomes.map((o) => o.status)).toEqual(["abandoned", "abandoned"]);
    });
  });
});
