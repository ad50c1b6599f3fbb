import type { ChatPart, OpenedCompletion } from "./chat-part.ts";
import type { ChatCompletionRequest } from "./chat-request.ts";
import { collectCompletion, completionChunks, completionMeta, type ChatCompletion, type ChunkEvent, type CompletionMeta } from "./completion-object.ts";
import { toDocentError } from "./errors.ts";
import type { SourceScope } from "./source-scope.ts";

/** What runs a completion: the engine's `open` (a narrow type, so tests and interfaces need no more). */
export interface CompletionOpener {
  open(request: ChatCompletionRequest, options: { signal: AbortSignal; scope: SourceScope }): Promise<OpenedCompletion>;
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
 */
export async function runCompletion(
  engine: CompletionOpener,
  request: ChatCompletionRequest,
  { signal, scope = null }: { signal?: AbortSignal; scope?: SourceScope },
): Promise<CompletionRun> {
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
    opened = await engine.open(request, { signal: controller.signal, scope });
  } catch (error) {
    settle();
    throw toDocentError(error);
  }
  let used = false;
  async function* parts(): AsyncGenerator<ChatPart> {
    if (used) throw new Error("a completion's parts can be read once");
    used = true;
    try {
      yield* opened.parts;
    } finally {
      settle();
    }
  }
  const run: CompletionRun = {
    opened,
    meta: completionMeta(opened),
    parts,
    collect: () => collectCompletion({ ...opened, parts: parts() }, run.meta),
    chunks: ({ includeUsage = false } = {}) => completionChunks({ ...opened, parts: parts() }, { includeUsage, meta: run.meta }),
    abort: settle,
  };
  return run;
}
