import { startTestServer } from "../test/support/test-server.ts";

/**
 * REST latency on the embedded path: the real server on port 0 with the
 * fixture sources, sequential requests through HTTP, explicit and agent mode,
 * non-streamed and streamed. Prints figures; asserts nothing.
 */
const N = Number(process.env.BENCH_REQUESTS ?? 300);
// One key sends every request as fast as it can: far past the default per-minute budget, so limits are off here.
const server = await startTestServer({ RATE_LIMIT_PER_MINUTE: "0", MAX_CONCURRENT_PER_KEY: "0" });
const questions = ["How do I physically reorder a table according to an index?", "What does VACUUM do?", "How do I create a partial index?", "How do I build an index without locking writes?"];

async function measure(label: string, body: (q: string) => object) {
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const started = performance.now();
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify(body(questions[i % questions.length]!)),
    });
    await response.text();
    if (response.status !== 200) throw new Error(`${label}: HTTP ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  console.log(`${label.padEnd(28)} n=${N}  p50 ${at(0.5)} ms  p99 ${at(0.99)} ms`);
}

const ask = (q: string) => ({ model: "agent", messages: [{ role: "user", content: q }] });
await measure("explicit, non-streamed", (q) => ({ ...ask(q), sources: [server.sources.pg] }));
await measure("explicit, streamed", (q) => ({ ...ask(q), sources: [server.sources.pg], stream: true }));
await measure("agent, non-streamed", ask);
await measure("agent, streamed", (q) => ({ ...ask(q), stream: true }));
console.log(`RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB (server and client in one process)`);
await server.close();
