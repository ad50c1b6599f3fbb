import type { ChatPart, OpenedCompletion } from "./chat-part.ts";
import type { ChatCompletionRequest } from "./chat-request.ts";
import { type ChatCompletion, type ChunkEvent, type CompletionMeta, collectCompletion, completionChunks, completionMeta } from "./completion-object.ts";
import type { RequestTrace } from "./completion-outcome.ts";
import { lastUserText } from "./conversation-query.ts";
import { DocentError, toDocentError } from "./errors.ts";
import { createOutcomeRecorder, type OutcomeRecorder } from "./outcome-recorder.ts";
import type { SourceScope } from "./source-scope.ts";

/** What runs a completion: the engine's `open` (a narrow type, so tests and interfaces need no more). */
export interface CompletionOpener {
  /** `caller`: the key asking, so work shared between callers is taken in turn. */
  open(request: ChatCompletionRequest, options: { signal: AbortSignal; scope: SourceScope; caller?: string | null }): Promise<OpenedCompletion>;
}

/** Who asks, as every interface's admitted caller carries it: the sources it may see, its request's trace, its key's watch. */
export interface CompletionCaller {
  scope?: SourceScope;
  trace?: RequestTrace;
  /** Aborts, with the refusal as its reason, once the caller's key is revoked or expires. */
  keySignal?: AbortSignal;
}

/** One completion in flight, for any interface: collect it, or stream its parts or chunks. Each is single-use. */
export interface CompletionRun {
  opened: OpenedCompletion;
  meta: CompletionMeta;
  /** The engine's parts; leaving the loop early (client gone) stops generation. */
  parts(): AsyncGenerator<ChatPart>;
  /** The non-streamed `chat.completion`; throws the DocentError of a failure. */
  collect(): Promise<ChatCompletion>;
  /** The streamed `chat.completion.chunk`s, an in-stream failure as a final error event. */
  chunks(options?: { includeUsage?: boolean }): AsyncGenerator<ChunkEvent>;
  /** Stops generation now (a pending read may be waiting on the provider). */
  abort(): void;
}

/**
 * The glue every interface shares: opens a completion under the caller's
 * signal and source scope, and guarantees that generation stops and the
 * caller's abort listeners are removed on every path (done, failed, abandoned).
 * With a `trace`, the completion's outcome is reported to it once it ends.
 * The caller's `keySignal` aborts when its key is revoked or expires: generation
 * stops and the completion ends with that refusal, an error the caller sees
 * (in the stream, if it has begun), not a reply cut short without a word.
 */
export async function runCompletion(
  engine: CompletionOpener,
  request: ChatCompletionRequest,
  { signal, caller = {} }: { signal?: AbortSignal; caller?: CompletionCaller },
): Promise<CompletionRun> {
  const { keySignal, scope = null, trace } = caller;
  const startedAt = Date.now();
  const controller = new AbortController();
  const watched = [signal, keySignal].filter((s): s is AbortSignal => s !== undefined);
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  const settle = () => {
    for (const s of watched) s.removeEventListener("abort", onAbort);
    controller.abort();
  };
  const aborted = watched.find((s) => s.aborted);
  if (aborted) controller.abort(aborted.reason);
  else for (const s of watched) s.addEventListener("abort", onAbort, { once: true });
  /** The refusal that stopped the run: its key lost mid-answer. */
  const refusal = () => (keySignal?.aborted ? toDocentError(keySignal.reason) : null);

  let opened: OpenedCompletion;
  try {
    opened = await engine.open(request, { signal: controller.signal, scope, caller: trace?.keyId ?? null });
  } catch (error) {
    settle();
    throw refusal() ?? toDocentError(error);
  }
  const meta = completionMeta(opened);
  const recorder: OutcomeRecorder | undefined =
    trace && createOutcomeRecorder(trace, { opened, meta, question: lastUserText(request.messages), startedAt, openMs: Date.now() - startedAt });
  let used = false;
  async function* parts(): AsyncGenerator<ChatPart> {
    if (used) throw new Error("a completion's parts can be read once");
    used = true;
    // Once the reply has ended (finish or error), a key lost after it changes nothing the caller is sent.
    let ended = false;
    try {
      for await (const part of opened.parts) {
        if (!ended && refusal()) break;
        ended ||= part.type === "finish" || part.type === "error";
        await recorder?.observe(part);
        yield part;
      }
      const refused = ended ? null : refusal();
      if (refused) {
        const part: ChatPart = { type: "error", error: refused };
        await recorder?.observe(part);
        yield part;
        return;
      }
      // Parts that end without a finish or error part: the caller left (generation stops quietly then, and
      // collecting it is no failure of the service), or else the engine broke its contract.
      if (controller.signal.aborted) return void (await recorder?.end("abandoned"));
      await recorder?.end("failed", new Error("completion ended without a finish part"));
    } catch (error) {
      const refused = ended ? null : refusal();
      await recorder?.end("failed", refused ?? error);
      if (refused) {
        yield { type: "error", error: refused };
        return;
      }
      throw error;
    } finally {
      settle();
      // Reached with nothing reported only when the caller stopped reading.
      await recorder?.end("abandoned");
    }
  }
  const run: CompletionRun = {
    opened,
    meta,
    parts,
    collect: async () => {
      try {
        return await collectCompletion({ ...opened, parts: parts() }, run.meta);
      } catch (error) {
        // Collected after the caller left: the reply stopped short because of that, not a failure of the service.
        if (signal?.aborted && !(error instanceof DocentError)) throw new DocentError("CLIENT_CLOSED_REQUEST", "The request was aborted.");
        throw error;
      }
    },
    chunks: ({ includeUsage = false } = {}) => completionChunks({ ...opened, parts: parts() }, { includeUsage, meta: run.meta }),
    abort: () => {
      settle();
      // A stream cancelled before its first read never runs parts(): it still ended.
      if (!used) void recorder?.end("abandoned");
    },
  };
  return run;
}
