import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { createServices } from "./app-services.ts";
import { loadConfig } from "./config.ts";
import { tokenizerLoaded } from "./providers/tokenizer.ts";
import { englishWordsLoaded } from "./retrieval/english-words.ts";

it("a server loads the word list and the tokenizer's tables at start, before any request; a CLI command does not", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docent-warm-"));
  try {
    const config = loadConfig({ DATA_DIR: dir });
    const cli = await createServices(config, { preloadIndex: false });
    await cli.close();
    expect([englishWordsLoaded(), tokenizerLoaded()]).toEqual([false, false]);
    const server = await createServices(config);
    await server.close();
    expect([englishWordsLoaded(), tokenizerLoaded()]).toEqual([true, true]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
