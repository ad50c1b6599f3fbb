import { monitorEventLoopDelay } from "node:perf_hooks";
import { startTestServer } from "../test/support/test-server.ts";

/**
 * The server under fuzz, in its own process so the load generator's work
 * never delays it: embedded defaults, demo off, the two fixture sources.
 * Prints one JSON line (url, key, source ids) and serves until stdin closes;
 * then prints its event loop's delays (ms) as a second line.
 */
// Limits per key off: every hostile body should reach the parser, not stop at a 429.
const server = await startTestServer({ HOST: "127.0.0.1", RATE_LIMIT_PER_MINUTE: "0", MAX_CONCURRENT_PER_KEY: "0" });
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
process.stdout.write(`${JSON.stringify({ url: server.url, key: server.key, sources: server.sources })}\n`);
const stop = async () => {
  delay.disable();
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  process.stdout.write(`${JSON.stringify({ p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) })}\n`);
  await server.close();
  process.exit(0);
};
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();
