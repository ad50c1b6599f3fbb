import type { Plugin } from "graphql-yoga";
import type { Lease } from "../core/rate-limiter.ts";
import type { GraphQLContext } from "./context.ts";

/**
 * An operation sent into a graphql-sse single-connection stream (a POST or GET
 * with the stream's token) is answered 202 at once and runs on in the stream, so
 * the admission would give its concurrency slot back while it still runs: 40
 * subscriptions sent so ran 40 provider calls at once under a cap of 2. Its
 * subscription keeps the request's lease and gives it back when it ends
 * (finished, failed, or returned when the stream closes or the client cancels).
 */
export const streamOperationLease = (sentIntoStream: (request: Request) => boolean): Plugin<GraphQLContext> => ({
  onSubscribe({ args }) {
    const { request, caller } = args.contextValue;
    if (!sentIntoStream(request) || !caller.keepLease) return;
    return {
      onSubscribeResult({ result, setResult }) {
        if (isAsyncIterable(result)) setResult(releasedAtEnd(result, caller.keepLease!()));
      },
    };
  },
});

const isAsyncIterable = <T>(value: unknown): value is AsyncIterableIterator<T> => typeof value === "object" && value !== null && Symbol.asyncIterator in value;

/** The same results, releasing `lease` once when they end by any path. */
function releasedAtEnd<T>(source: AsyncIterableIterator<T>, lease: Lease): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const release = () => void lease.release();
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      try {
        const step = await iterator.next();
        if (step.done) release();
        return step;
      } catch (error) {
        release();
        throw error;
      }
    },
    // A return (the stream closed, the operation cancelled) waits for the run to stop before the slot is free:
    // it is queued behind the step in progress, and given back at once, the provider call ran on under no cap.
    async return(value?: unknown) {
      try {
        return (await iterator.return?.(value)) ?? { done: true, value: undefined };
      } finally {
        release();
      }
    },
    async throw(error?: unknown) {
      try {
        if (iterator.throw) return await iterator.throw(error);
        throw error;
      } finally {
        release();
      }
    },
  };
}
