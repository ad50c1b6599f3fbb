import { type Config, ConfigError, loadConfig } from "./config.ts";
import { loadEnvFile } from "./env-file.ts";
import { type RunningServer, startServer } from "./server.ts";
import { StartupError } from "./startup-error.ts";

/**
 * The process a service manager runs (`npm start` execs it): a problem the
 * operator can fix stops it with one line and exit code 1; SIGTERM or SIGINT
 * stops it gracefully with exit code 0.
 */
let config: Config | undefined;
let server: RunningServer | undefined;
let stopping = false;

async function stop(signal: NodeJS.Signals) {
  // A terminal's Ctrl-C reaches both npm and us, and npm forwards it again: one stop is enough.
  if (stopping || !server || !config) return;
  stopping = true;
  const { logger } = server.services;
  logger.info({ signal }, `docent: ${signal} received; stopping (requests in flight get up to ${config.SHUTDOWN_GRACE_MS} ms).`);
  await server.close({ graceMs: config.SHUTDOWN_GRACE_MS });
  logger.info("docent: stopped.");
  process.exit(0);
}

let signalledDuringStart: NodeJS.Signals | undefined;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => (server ? void stop(signal) : (signalledDuringStart ??= signal)));
}

try {
  loadEnvFile();
  config = loadConfig();
  // Standard output that is no terminal is a log someone keeps (a container's, a service manager's): no key goes there.
  server = await startServer(config, { firstKeyTo: process.stdout.isTTY ? "banner" : "file" });
} catch (error) {
  if (error instanceof ConfigError || error instanceof StartupError) {
    console.error(`docent: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
if (signalledDuringStart) await stop(signalledDuringStart);
