import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it, vi } from "vitest";

it("a server loads the word list and the tokenizer's tables at start, before any request; a CLI command does not", async () => {
  // Test files share one module registry (vitest.config.ts: isolate false), so an earlier file
  // may have loaded the tables already: this test starts from fresh modules.
  vi.resetModules();
  const { createServices } = await import("./app-services.ts");
  const { loadConfig } = await import("./config.ts");
  const { tokenizerLoaded } = await import("./providers/tokenizer.ts");
  const { englishWordsLoaded } = await import("./retrieval/english-words.ts");
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
