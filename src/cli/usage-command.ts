import { DocentError } from "../core/errors.ts";
import type { KeyStore } from "../core/key-store.ts";
import type { ReadUsage } from "../core/usage-report.ts";
import { table, UsageError } from "./output.ts";

export interface UsageFlags {
  key?: string;
  since?: string;
  json?: boolean;
}

/** `usage [--key ID] [--since 30d] [--json]`: requests and tokens per day, key and model. */
export async function usageCommand({ keys, read }: { keys: KeyStore; read: ReadUsage }, rest: string[], flags: UsageFlags, print: (s: string) => void) {
  if (rest.length) throw new UsageError("usage takes no arguments: usage [--key ID] [--since 30d] [--json]");
  const names = new Map((await keys.list()).map((k) => [k.id, k.name]));
  if (flags.key !== undefined && !names.has(flags.key)) throw new UsageError(`Unknown key '${flags.key}' (see keys list for ids).`);
  let usage: Awaited<ReturnType<ReadUsage>>;
  try {
    usage = await read(flags.key, { since: flags.since });
  } catch (error) {
    // The API's 400 names its query parameter; here it is a flag.
    if (error instanceof DocentError && error.code === "BAD_REQUEST")
      throw new UsageError(`--${error.param ?? "since"}: ${error.message.replace(/^Invalid value for '\w+': /, "")}`);
    throw error;
  }
  if (flags.json) return print(JSON.stringify(usage));
  const who = flags.key ? `key ${names.get(flags.key)} (${flags.key})` : "all keys";
  if (usage.data.length === 0) return print(`No usage for ${who} from ${usage.since} to ${usage.until}.`);
  const rows = usage.data.map((b) => ({
    date: b.date,
    key: `${names.get(b.key_id) ?? "(deleted)"} ${b.key_id.slice(0, 8)}`,
    model: b.model,
    served_by: b.served_by,
    requests: b.requests,
    prompt_tokens: b.prompt_tokens,
    completion_tokens: b.completion_tokens,
    total_tokens: b.total_tokens,
  }));
  const t = usage.totals;
  print(
    `Usage for ${who}, ${usage.since} to ${usage.until} (UTC days):\n\n${table(rows)}\n\nTotal: ${t.requests} requests, ${t.prompt_tokens} prompt + ${t.completion_tokens} completion = ${t.total_tokens} tokens.`,
  );
}
