import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { errorCode, StartupError, systemReason } from "./startup-error.ts";

export interface Listener {
  port: number;
  /**
   * Stops accepting connections, lets requests in flight finish for up to
   * `graceMs`, then cuts the connections left; resolves when none remain.
   */
  stop(graceMs: number): Promise<void>;
}

/** Serves `fetch` on host:port; a port in use or an address that is not ours is a StartupError. */
export async function listen(fetch: (request: Request) => Response | Promise<Response>, { port, host }: { port: number; host: string }): Promise<Listener> {
  const server = createAdaptorServer({ fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(listenError(error, host, port)));
    server.listen(port, host, () => resolve());
  });
  // Requests Node refuses before any route sees them get OpenAI's error shape too (its own answer has no body).
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    // As Node's own handler: nothing to write to a reset socket, or into a response already under way.
    const started = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (error.code === "ECONNRESET" || !socket.writable || started) return void socket.destroy();
    // Closed once written: a client that keeps its side open must not keep the server's.
    socket.end(rawErrorResponse(error.code), () => socket.destroy());
  });
  let draining = false;
  // Once stopping, every response closes its connection, and a keep-alive
  // connection left idle by a finished response is closed at once.
  server.prependListener("request", (_request, response) => {
    if (draining) response.setHeader("connection", "close");
    response.once("finish", () => draining && setImmediate(() => server.closeIdleConnections()));
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: (graceMs) =>
      new Promise<void>((resolve) => {
        draining = true;
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** The whole HTTP response for a request Node could not parse: header overflow 431, timeout 408, else 400. */
function rawErrorResponse(code: string | undefined): string {
  const [status, reason, message, errorCode] =
    code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "The request's headers are larger than this server accepts (16 KB in all).", "request_headers_too_large"]
      : code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "The request was not received in time.", "request_timeout"]
        : [400, "Bad Request", "The request is not valid HTTP.", "invalid_http"];
  const body = JSON.stringify({ error: { message, type: "invalid_request_error", param: null, code: errorCode } });
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

function listenError(error: Error, host: string, port: number): Error {
  const at = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  switch (errorCode(error)) {
    case "EADDRINUSE":
      return new StartupError(`port ${port} on ${host} is already in use (EADDRINUSE); stop the other process or set PORT to a free port.`, { cause: error });
    case "EACCES":
      return new StartupError(`not allowed to listen on ${at} (EACCES); ports below 1024 need privileges: set PORT to 1024 or above.`, { cause: error });
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return new StartupError(`cannot listen on ${at}: HOST=${host} is ${systemReason(error)}.`, { cause: error });
    default:
      return error;
  }
}
