import { type ApiKeyInfo, type KeyStore, keyStatus } from "../core/key-store.ts";
import type { SourceCatalog, SourceInfo } from "../core/source-catalog.ts";
import { parseDuration } from "./duration.ts";
import { table, UsageError } from "./output.ts";

export interface KeysFlags {
  name?: string;
  json?: boolean;
  sources?: string;
  "expires-in"?: string;
}

/** Minutes are enough for a person reading a table; --json has the exact instants. */
const when = (date: Date | null, none: string) => (date ? `${date.toISOString().slice(0, 16).replace("T", " ")}Z` : none);

/** `--sources A,B`: each item a source id or an exact source name; every one must exist. */
async function resolveSources(catalog: SourceCatalog, list: string): Promise<SourceInfo[]> {
  const wanted = [
    ...new Set(
      list
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (wanted.length === 0) throw new UsageError("--sources needs at least one source id (see sources list); leave it out for every source.");
  const found: SourceInfo[] = [];
  for (const item of wanted) {
    const source = (await catalog.get(item)) ?? (await catalog.findByName(item));
    if (!source) throw new UsageError(`Unknown source '${item}': no key created (see sources list for ids).`);
    if (!found.some((s) => s.id === source.id)) found.push(source);
  }
  return found;
}

function expiryFrom(text: string | undefined): Date | null {
  if (text === undefined) return null;
  const ms = parseDuration(text);
  if (ms === null)
    throw new UsageError(`--expires-in '${text}' is not a duration: use a whole number of minutes, hours or days, like 90m, 12h or 30d (at most 36500d).`);
  return new Date(Date.now() + ms);
}

const scopeText = (key: ApiKeyInfo, names: Map<string, string>) =>
  key.sourceIds === null ? "all sources" : key.sourceIds.map((id) => names.get(id) ?? `${id} (removed)`).join(", ");

export async function keysCommand(
  { keys, catalog }: { keys: KeyStore; catalog: SourceCatalog },
  [action, ...rest]: string[],
  flags: KeysFlags,
  print: (s: string) => void,
) {
  switch (action) {
    case "create": {
      if (!flags.name) throw new UsageError("keys create needs --name NAME");
      // Everything is checked before the key exists: a refused command creates nothing.
      const expiresAt = expiryFrom(flags["expires-in"]);
      const sources = flags.sources === undefined ? null : await resolveSources(catalog, flags.sources);
      const key = await keys.create(flags.name, { sourceIds: sources?.map((s) => s.id) ?? null, expiresAt });
      if (flags.json) {
        print(
          JSON.stringify({
            id: key.id,
            name: key.name,
            key: key.key,
            prefix: key.prefix,
            created_at: key.createdAt.toISOString(),
            source_ids: key.sourceIds,
            expires_at: key.expiresAt?.toISOString() ?? null,
          }),
        );
      } else {
        const scope = sources ? `for ${sources.map((s) => s.name).join(", ")}` : "for all sources";
        print(
          `Created key "${key.name}" (id ${key.id}) ${scope}, ${key.expiresAt ? `expiring ${when(key.expiresAt, "")}` : "never expiring"}. It is shown only this once:\n\n  ${key.key}\n`,
        );
      }
      return;
    }
    case "list": {
      const list = await keys.list();
      const now = new Date();
      if (flags.json) {
        print(
          JSON.stringify(
            list.map((k) => ({
              id: k.id,
              name: k.name,
              prefix: k.prefix,
              created_at: k.createdAt.toISOString(),
              last_used_at: k.lastUsedAt?.toISOString() ?? null,
              revoked_at: k.revokedAt?.toISOString() ?? null,
              source_ids: k.sourceIds,
              expires_at: k.expiresAt?.toISOString() ?? null,
              status: keyStatus(k, now),
            })),
          ),
        );
        return;
      }
      if (!list.length) return print("No API keys yet. Create one with: npm run cli -- keys create --name NAME");
      const names = new Map((await catalog.list()).map((s) => [s.id, s.name]));
      print(
        table(
          list.map((k) => ({
            id: k.id,
            name: k.name,
            prefix: `${k.prefix}…`,
            scope: scopeText(k, names),
            created: when(k.createdAt, ""),
            expires: when(k.expiresAt, "never"),
            last_used: when(k.lastUsedAt, "never"),
            status: keyStatus(k, now),
          })),
        ),
      );
      return;
    }
    case "revoke": {
      const id = rest[0];
      if (!id) throw new UsageError("keys revoke needs the key's ID (see keys list)");
      if (!(await keys.revoke(id))) throw new UsageError(`No active key with id ${id}.`);
      print(flags.json ? JSON.stringify({ id, revoked: true }) : `Revoked key ${id}.`);
      return;
    }
    default:
      throw new UsageError("keys: use create --name NAME [--sources ID,ID…] [--expires-in 30d] [--json] | list [--json] | revoke ID");
  }
}
