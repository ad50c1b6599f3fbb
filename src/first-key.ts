import fs from "node:fs";
import path from "node:path";

/** Where the first API key is written when nobody is at a terminal (see StartOptions.firstKeyTo). */
export const FIRST_KEY_FILE = "first-api-key";

/** Writes the key to DATA_DIR/first-api-key, readable by this user only; throws what the file system said. */
export function writeFirstKeyFile(dataDir: string, key: string): void {
  const file = path.join(dataDir, FIRST_KEY_FILE);
  // DATA_DIR may not exist yet (PostgreSQL and Weaviate need none); the file is made afresh, so its mode is this one.
  fs.mkdirSync(dataDir, { recursive: true });
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/** The banner a person at a terminal sees once: the key and a ready-to-paste curl line (or, with no source, the first step). */
export function firstKeyBanner(key: string, url: string, noSource: boolean): string {
  return [
    `docent: created your first API key (shown once, store it now):`,
    ``,
    `  ${key}`,
    ``,
    ...(noSource
      ? [`There is no knowledge source yet; add one first, e.g.:`, `  npm run cli -- sources add --name NAME --dir PATH --base-url URL`, `then try it:`]
      : [`Try it:`]),
    `  curl ${url}/v1/chat/completions -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\`,
    `    -d '{"model":"agent","messages":[{"role":"user","content":"How do I add a knowledge source?"}]}'`,
    ``,
  ].join("\n");
}
