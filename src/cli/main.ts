import { parseArgs } from "node:util";
import { createServices } from "../app-services.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { DocentError } from "../core/errors.ts";
import { migrateDatabase } from "../db/migrate-database.ts";
import { loadEnvFile } from "../env-file.ts";
import { StartupError } from "../startup-error.ts";
import { SyncInProgressError } from "../sync/run-sync.ts";
import { checkCommandFlags } from "./command-flags.ts";
import { keysCommand } from "./keys-command.ts";
import { UsageError } from "./output.ts";
import { reportCommand } from "./report-command.ts";
import { sourcesCommand } from "./sources-command.ts";
import { usageCommand } from "./usage-command.ts";

const USAGE = `Usage: npm run cli -- <command>

  keys create --name NAME [--sources ID,ID…] [--expires-in 30d] [--json]
                                       create an API key (the secret is printed once), limited to
                                       some sources (ids or names) and expiring after 90m, 12h, 30d…
  keys list [--json]                   list keys with their scope, expiry and status (never the secrets)
  keys revoke ID [--json]              revoke a key
  sources add --name NAME --dir PATH --base-url URL [--description TEXT] [--refresh 24h] [--json]
                                       ingest a folder of HTML/Markdown as a knowledge source
  sources add --name NAME --url URL [--sitemap URL] [--max-pages N] [--description TEXT] [--refresh 24h] [--json]
                                       crawl a documentation site (within URL's folder, robots.txt honoured);
                                       --refresh: how often a running server re-syncs it (off: never;
                                       default: SYNC_INTERVAL)
  sources sync ID [--json]             re-read a source from its folder or site: only changed pages
                                       (a crawl asks for pages changed since the last sync)
  sources sync --all [--json]          every source in turn, for cron; exit code 1 if any failed or was busy
  sources list [--json]                list knowledge sources
  sources remove ID [--json]           remove a knowledge source
  usage [--key ID] [--since 30d] [--json]
                                       requests and tokens per UTC day, key and model (--since: 24h, 7d, 2w
                                       or a date such as 2026-11-01)
  report gaps [--since 7d] [--source ID] [--weak-below 0.8] [--json]
                                       what the docs fail to answer: refused, weakly grounded (best passage
                                       covers under 0.8 of the question) and down-voted answers, grouped by
                                       similar wording, with the pages that came closest
  db migrate                           apply database migrations`;

function parseCliArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      dir: { type: "string" },
      url: { type: "string" },
      sitemap: { type: "string" },
      "max-pages": { type: "string" },
      "base-url": { type: "string" },
      description: { type: "string" },
      sources: { type: "string" },
      "expires-in": { type: "string" },
      refresh: { type: "string" },
      all: { type: "boolean" },
      key: { type: "string" },
      since: { type: "string" },
      source: { type: "string" },
      "weak-below": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** Runs one CLI command; returns the process exit code. */
export async function runCli(argv: string[], print = (s: string) => console.log(s), printError = (s: string) => console.error(s)): Promise<number> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv);
  } catch (error) {
    printError(`docent: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [group, ...rest] = parsed.positionals;
  if (!group || parsed.values.help) {
    print(USAGE);
    return group || parsed.values.help ? 0 : 2;
  }
  try {
    checkCommandFlags(parsed.positionals, parsed.values);
    const config = loadConfig();
    if (group === "db") {
      if (rest[0] !== "migrate") throw new UsageError("db: use db migrate");
      const result = await migrateDatabase(config);
      print(
        result.applied.length
          ? `Applied ${result.applied.length} migration(s): ${result.applied.join(", ")}`
          : `Database is up to date (${result.alreadyApplied} migrations).`,
      );
      return 0;
    }
    if (!["keys", "sources", "usage", "report"].includes(group)) throw new UsageError(`Unknown command '${group}'.`);
    // A CLI command searches nothing: the index's segments stay on disk.
    const services = await createServices(config, { preloadIndex: false });
    try {
      if (group === "keys") await keysCommand(services, rest, parsed.values, print);
      else if (group === "usage") await usageCommand({ keys: services.keys, read: services.usage.read }, rest, parsed.values, print);
      else if (group === "report") await reportCommand(services, rest, parsed.values, print);
      else return (await sourcesCommand(services, rest, parsed.values, print, printError)) ?? 0;
    } finally {
      await services.close();
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      printError(`docent: ${error.message}`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof StartupError || error instanceof DocentError || error instanceof SyncInProgressError) {
      printError(`docent: ${error.message}`);
      return 1;
    }
    // Anything else is a defect, reported in one line (a stack trace would show this machine's paths).
    printError(`docent: unexpected error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  loadEnvFile();
  process.exitCode = await runCli(process.argv.slice(2));
}
