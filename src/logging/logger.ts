import { type DestinationStream, type Logger as PinoLogger, pino } from "pino";
import pretty from "pino-pretty";
import type { Config } from "../config.ts";

export type Logger = PinoLogger;

/**
 * Never in a log line, whatever a caller passes by mistake: credentials under
 * their usual names are replaced before the line is written.
 */
const REDACT = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "key",
  "*.key",
  "apiKey",
  "*.apiKey",
  "token",
  "*.token",
  "password",
  "*.password",
];

/**
 * The service's logger: one JSON object per line (pino), ISO times, at
 * LOG_LEVEL; on a terminal the same records are pretty-printed for a person.
 * `destination` is for tests (a stream that captures the lines).
 */
export function createLogger(
  config: Pick<Config, "LOG_LEVEL">,
  { destination, tty = process.stdout.isTTY === true }: { destination?: DestinationStream; tty?: boolean } = {},
): Logger {
  const options = {
    level: config.LOG_LEVEL,
    base: { service: "docent" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT, censor: "[redacted]" },
  };
  // pino-pretty as a stream in this thread, not a transport worker: a person at a terminal wants lines in order, at once.
  const stream =
    destination ??
    (tty ? pretty({ colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service", sync: true }) : pino.destination({ dest: 1, sync: true }));
  return pino(options, stream);
}

/** A logger that writes nothing (the CLI, which prints for people, and tests that do not look). */
export const silentLogger = (): Logger => pino({ level: "silent" });
