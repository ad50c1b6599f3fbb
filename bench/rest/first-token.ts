import http from "node:http";

/**
 * How long a relay holds the first token: the fake upstream writes the time
 * it sent the first token as that token (`t=<ms>`); the client, on the same
 * machine and clock, notes when it arrives. Sequential streamed requests.
 * Also the time to first token as the client sees it (request sent → token).
 */
export async function firstTokenDelays(url: string, headers: Record<string, string>, bodies: string[], n: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const held: number[] = [];
  const ttft: number[] = [];
  const target = new URL("/v1/chat/completions", url);
  for (let i = 0; i < n; i++) {
    const body = bodies[i % bodies.length]!;
    const sent = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        target,
        { method: "POST", agent, headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
        (res) => {
          let seen = "";
          let found = false;
          res.setEncoding("utf8");
          res.on("data", (d: string) => {
            if (found) return;
            seen += d;
            const match = /t=(\d+\.\d+)/.exec(seen);
            if (!match) return;
            found = true;
            const now = performance.now();
            held.push(performance.timeOrigin + now - Number(match[1]));
            ttft.push(now - sent);
          });
          res.on("end", () => (found ? resolve() : reject(new Error(`no first token in: ${seen.slice(0, 300)}`))));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }
  agent.destroy();
  return { held: summary(held), ttft: summary(ttft) };
}

export function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, p50: at(0.5), p99: at(0.99) };
}
