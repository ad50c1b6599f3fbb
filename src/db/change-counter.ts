import type { PrismaClient } from "./prisma-client.ts";

/**
 * The `ChangeCounter` row: every change to keys or sources moves it in the
 * same transaction (`bumpChanges` goes into the writer's `$transaction`), so a
 * process that holds keys and sources in memory knows to reload them when it
 * reads a new value, whoever made the change (the CLI, another instance).
 */
export const bumpChanges = (prisma: Pick<PrismaClient, "changeCounter">) =>
  prisma.changeCounter.upsert({ where: { id: 1 }, create: { id: 1, value: 1 }, update: { value: { increment: 1 } } });

export const readChanges = async (prisma: PrismaClient): Promise<number> => (await prisma.changeCounter.findUnique({ where: { id: 1 } }))?.value ?? 0;

/**
 * Polls the counter every `intervalMs` (a one-row primary-key read) and calls
 * `onChange` when it moved. A failed poll or reload is retried at the next
 * tick; meanwhile the caches keep serving what they hold.
 */
export function watchChanges(prisma: PrismaClient, { intervalMs, onChange }: { intervalMs: number; onChange: () => Promise<unknown> }) {
  let seen: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const tick = async () => {
    try {
      const value = await readChanges(prisma);
      if (seen !== undefined && value !== seen) await onChange();
      seen = value;
    } catch {
      // The database is unreachable for now: keep what is in memory, try again.
    }
    if (!closed) timer = setTimeout(tick, intervalMs).unref();
  };
  const started = tick();
  return {
    /** Resolves once the counter's starting value has been read. */
    started,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
