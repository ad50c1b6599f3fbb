/**
 * A reason the service cannot start that the operator can fix (a port in
 * use, an unusable DATA_DIR, a database nothing answers at): printed as one
 * `docent: …` line with exit code 1, never as a stack.
 */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    // One line, whatever the underlying error said.
    super(message.replace(/\s*\n\s*/g, " "), options);
    this.name = "StartupError";
  }
}

const SYSTEM_REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ETIMEDOUT: "timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  ENOENT: "no such file or folder",
  ENOTDIR: "a part of the path is a file",
  EEXIST: "a file is in the way",
  EISDIR: "is a folder",
  EADDRINUSE: "address already in use",
  EADDRNOTAVAIL: "not an address of this machine",
};

/** The system error code of an error (`ECONNREFUSED`…), if it has one. */
export const errorCode = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
};

/** "connection refused (ECONNREFUSED)" for system errors we know; undefined otherwise. */
export function systemReason(error: unknown): string | undefined {
  const code = errorCode(error);
  return code && SYSTEM_REASONS[code] ? `${SYSTEM_REASONS[code]} (${code})` : undefined;
}

/** A connection URL fit for a log line: the password replaced by stars. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
  }
}

/** A SQLite file that cannot be opened or read (missing folder rights, not a database, corrupt): one line naming the file. */
export function sqliteStartupError(error: unknown, file: string, what = "the SQLite database"): StartupError | null {
  const code = errorCode(error) ?? "";
  const reason = systemReason(error) ?? (/^SQLITE_(CANTOPEN|READONLY|NOTADB|CORRUPT|PERM|IOERR)/.test(code) ? `${(error as Error).message} (${code})` : null);
  return reason ? new StartupError(`cannot open ${what} ${file}: ${reason}.`, { cause: error }) : null;
}
