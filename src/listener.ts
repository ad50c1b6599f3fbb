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
