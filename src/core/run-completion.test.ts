import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { ChatPart, OpenedCompletion } from "./chat-part.ts";
import type { ChatCompletionRequest } from "./chat-request.ts";
import { DocentError } from "./errors.ts";
import { runCompletion, type CompletionOpener } from "./run-completion.ts";

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
    const run = await runCompletion(engine, request, { signal: caller.signal, scope: ["a"] });
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
});
