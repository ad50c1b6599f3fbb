import { UsageError } from "./output.ts";

/** The flags each command takes (`--help` aside): one a command does not take is refused, not ignored. */
const COMMAND_FLAGS: Record<string, readonly string[]> = {
  "keys create": ["name", "sources", "expires-in", "json"],
  "keys list": ["json"],
  "keys revoke": ["json"],
  "sources add": ["name", "dir", "url", "sitemap", "max-pages", "base-url", "description", "refresh", "json"],
  "sources sync": ["all", "json"],
  "sources list": ["json"],
  "sources remove": ["json"],
  usage: ["key", "since", "json"],
  "report gaps": ["since", "source", "weak-below", "json"],
  "db migrate": [],
};

/**
 * Refuses a flag the command does not take (`keys create --refresh 6h`, `usage --source ID`): ignored, it would
 * look as if it had done something. Commands not listed here are left to say what is wrong with them.
 */
export function checkCommandFlags(positionals: readonly string[], flags: Record<string, unknown>): void {
  const [group, action] = positionals;
  const command = group === "usage" ? group : `${group} ${action}`;
  const allowed = COMMAND_FLAGS[command];
  if (!allowed) return;
  const extra = Object.keys(flags).filter((flag) => flag !== "help" && flags[flag] !== undefined && !allowed.includes(flag));
  if (extra.length === 0) return;
  const takes = allowed.length > 0 ? `it takes ${allowed.map((f) => `--${f}`).join(", ")}` : "it takes no flags";
  throw new UsageError(`${command} does not take ${extra.map((f) => `--${f}`).join(", ")}: ${takes}.`);
}
