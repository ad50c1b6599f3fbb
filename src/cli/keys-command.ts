import type { KeyStore } from "../core/key-store.ts";
import { table, UsageError } from "./output.ts";

export async function keysCommand(keys: KeyStore, [action, ...rest]: string[], flags: { name?: string; json?: boolean }, print: (s: string) => void) {
  switch (action) {
    case "create": {
      if (!flags.name) throw new UsageError("keys create needs --name NAME");
      const key = await keys.create(flags.name);
      if (flags.json) print(JSON.stringify({ id: key.id, name: key.name, key: key.key, prefix: key.prefix, created_at: key.createdAt.toISOString() }));
      else print(`Created key "${key.name}" (id ${key.id}). It is shown only this once:\n\n  ${key.key}\n`);
      return;
    }
    case "list": {
      const list = await keys.list();
      if (flags.json) {
        print(JSON.stringify(list.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, created_at: k.createdAt.toISOString(), last_used_at: k.lastUsedAt?.toISOString() ?? null, revoked_at: k.revokedAt?.toISOString() ?? null }))));
      } else {
        print(list.length ? table(list.map((k) => ({ id: k.id, name: k.name, prefix: `${k.prefix}…`, created: k.createdAt.toISOString(), last_used: k.lastUsedAt?.toISOString() ?? "never", status: k.revokedAt ? "revoked" : "active" }))) : "No API keys yet. Create one with: npm run cli -- keys create --name NAME");
      }
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
      throw new UsageError("keys: use create --name NAME [--json] | list [--json] | revoke ID");
  }
}
