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
 * caller's abort listener is removed on every path (done, failed, abandoned).
 * With a `trace`, the completion's outcome is reported to it once it ends.
 */
export async function runCompletion(
  engine: CompletionOpener,
  request: ChatCompletionRequest,
  { signal, scope = null, trace }: { signal?: AbortSignal; scope?: SourceScope; trace?: RequestTrace },
): Promise<CompletionRun> {
  const startedAt = Date.now();
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  const settle = () => {
    signal?.removeEventListener("abort", onAbort);
    controller.abort();
  };
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener("abort", onAbort, { once: true });

  let opened: OpenedCompletion;
  try {
    opened = await engine.open(request, { signal: controller.signal, scope, caller: trace?.keyId ?? null });
  } catch (error) {
    settle();
    throw toDocentError(error);
  }
  const meta = completionMeta(opened);
  const recorder: OutcomeRecorder | undefined =
    trace && createOutcomeRecorder(trace, { opened, meta, question: lastUserText(request.messages), startedAt, openMs: Date.now() - startedAt });
  let used = false;
  async function* parts(): AsyncGenerator<ChatPart> {
    if (used) throw new Error("a completion's parts can be read once");
    used = true;
    try {
      for await (const part of opened.parts) {
        await recorder?.observe(part);
        yield part;
      }
      // Parts that end without a finish or error part: the caller left (generation stops quietly then, and
      // collecting it is no failure of the service), or else the engine broke its contract.
      if (controller.signal.aborted) return void (await recorder?.end("abandoned"));
      await recorder?.end("failed", new Error("completion ended without a finish part"));
    } catch (error) {
      await recorder?.end("failed", error);
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
