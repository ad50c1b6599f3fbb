// The bare relay `npm run bench -- rest` compares docent with: POST
// /v1/chat/completions forwarded to the upstream as it came, the reply piped
// back as it comes (JSON or SSE), over kept-alive connections. Nothing else.
import http from "node:http";

const upstream = new URL(process.argv[2]); // e.g. http://127.0.0.1:4000/v1
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const server = http.createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
    res.writeHead(404).end();
    return;
  }
  const headers = { "content-type": "application/json", authorization: "Bearer relay" };
  if (req.headers["content-length"]) headers["content-length"] = req.headers["content-length"];
  const forward = http.request(
    { host: upstream.hostname, port: upstream.port, path: `${upstream.pathname}/chat/completions`, method: "POST", headers, agent },
    (reply) => {
      res.writeHead(reply.statusCode ?? 502, { "content-type": reply.headers["content-type"] ?? "application/json" });
      reply.pipe(res);
    },
  );
  forward.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(forward);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
