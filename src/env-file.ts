import fs from "node:fs";

/**
 * Reads `.env` from the working directory when there is one (Node's own
 * parser: `KEY=value`, quotes, `#` comments, `export`). Variables already set
 * in the environment win, so a service manager's settings override the file.
 */
export function loadEnvFile(file = ".env") {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}
