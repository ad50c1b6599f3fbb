// A zero-latency fake OpenAI Chat Completions server for `npm run bench -- rest`
// (plain JavaScript, run by plain node, so neither side of the comparison pays
// for a loader). JSON or SSE by the request's `stream`; the first streamed token
// is the time it was written (performance.timeOrigin + now, in ms), so a client
// on the same machine can tell how long a relay held it.
import http from "node:http";

const TEXT = "To add a knowledge source, run the CLI's sources add command with a folder of HTML or Markdown, or a URL to crawl [1].";
const WORDS = TEXT.match(/\S+\s*/g);
const id = "chatcmpl-bench";
const chunk = (delta, finish) =>
  `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1, model: "bench-model", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usage = { prompt_tokens: 400, completion_tokens: WORDS.length + 1, total_tokens: 401 + WORDS.length };
const json = JSON.stringify({
  id,
  object: "chat.completion",
  created: 1,
  model: "bench-model",
  choices: [{ index: 0, message: { role: "assistant", content: TEXT }, finish_reason: "stop" }],
  usage,
});
const head = chunk({ role: "assistant", content: "" }, null);
const tail = WORDS.map((w) => chunk({ content: w }, null)).join("") + chunk({}, "stop");
const usageChunk = `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1, model: "bench-model", choices: [], usage })}\n\n`;

const server = http.createServer((req, res) => {
  let raw = "";
  req.setEncoding("utf8");
  req.on("data", (d) => (raw += d));
  req.on("end", () => {
    if (!raw.includes('"stream":true')) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(json);
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const stamp = chunk({ content: `t=${(performance.timeOrigin + performance.now()).toFixed(3)} ` }, null);
    res.write(head + stamp);
    res.end(`${tail + (raw.includes('"include_usage":true') ? usageChunk : "")}data: [DONE]\n\n`);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
