import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { KeyStore } from "./key-store.ts";

export interface KeyStoreUnderTest {
  keys: KeyStore;
  /** Every stored key row, as the database holds it, for checking what is kept at rest. */
  storedRows(): Promise<unknown[]>;
  /** Another store on the same database, as another process sharing it has (its own connection where the database serves several in one process). */
  another(): Promise<KeyStore>;
  cleanup?(): Promise<void>;
}

/** A clock the suite moves by hand, so expiry is tested without waiting. */
export class TestClock {
  private offsetMs = 0;
  readonly now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

const HOUR = 3_600_000;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/**
 * The contract every KeyStore implementation runs (Prisma on SQLite and on
 * PostgreSQL): secrets leave only `create`, only hashes are stored, and
 * `verify`/`getActive` answer null for unknown, revoked and expired keys.
 * `setup` gets the clock the store must use for expiry.
 */
export function keyStoreContract(name: string, setup: (clock: TestClock) => Promise<KeyStoreUnderTest>) {
  describe(`KeyStore contract: ${name}`, () => {
    const withStore = async (test: (s: KeyStoreUnderTest, clock: TestClock) => Promise<void>) => {
      const clock = new TestClock();
      const store = await setup(clock);
      try {
        await test(store, clock);
      } finally {
        await store.cleanup?.();
      }
    };

    it("creates a key whose secret verifies, and answers null for anything else", () =>
      withStore(async ({ keys }) => {
        const created = await keys.create("ci");
        expect(created.key).toMatch(/^dk_[A-Za-z0-9_-]{43}$/);
        expect(created).toMatchObject({ name: "ci", sourceIds: null, expiresAt: null, revokedAt: null, lastUsedAt: null });
        expect(created.key.startsWith(created.prefix)).toBe(true);
        expect(await keys.verify(created.key)).toMatchObject({ id: created.id, name: "ci" });
        expect(await keys.getActive(created.id)).toMatchObject({ id: created.id, name: "ci" });
        // Same lookup prefix, different secret: found by prefix, refused by the hash.
        const forged = created.key.slice(0, -4) + (created.key.endsWith("AAAA") ? "BBBB" : "AAAA");
        expect(await keys.verify(forged)).toBeNull();
        expect(await keys.verify(`dk_${"x".repeat(43)}`)).toBeNull();
        expect(await keys.verify("not a key")).toBeNull();
        expect(await keys.verify("")).toBeNull();
        expect(await keys.getActive("no-such-id")).toBeNull();
        expect(await keys.count()).toBe(1);
      }));

    it("returns the secret only from create and stores only its SHA-256 hash", () =>
      withStore(async ({ keys, storedRows }) => {
        const created = await keys.create("secretive", { sourceIds: ["s1"], expiresAt: new Date(Date.now() + HOUR) });
        const answers = [await keys.verify(created.key), await keys.getActive(created.id), ...(await keys.list())];
        for (const answer of answers) {
          expect(answer).not.toHaveProperty("key");
          expect(JSON.stringify(answer)).not.toContain(created.key);
          expect(JSON.stringify(answer)).not.toContain(sha256(created.key));
        }
        const rows = JSON.stringify(await storedRows());
        expect(rows).not.toContain(created.key);
        expect(rows).not.toContain(created.key.slice(created.prefix.length));
        expect(rows).toContain(sha256(created.key));
      }));

    it("keeps a source scope and an expiry through every read", () =>
      withStore(async ({ keys }) => {
        const expiresAt = new Date(Date.now() + 30 * 24 * HOUR);
        const scoped = await keys.create("scoped", { sourceIds: ["src-b", "src-a", "src-b"], expiresAt });
        const open = await keys.create("open", { sourceIds: null, expiresAt: null });
        expect(scoped).toMatchObject({ sourceIds: ["src-b", "src-a"], expiresAt });
        for (const read of [await keys.verify(scoped.key), await keys.getActive(scoped.id), (await keys.list()).find((k) => k.id === scoped.id)]) {
          expect(read?.sourceIds).toEqual(["src-b", "src-a"]);
          expect(read?.expiresAt?.getTime()).toBe(expiresAt.getTime());
        }
        for (const read of [await keys.verify(open.key), await keys.getActive(open.id), (await keys.list()).find((k) => k.id === open.id)]) {
          expect(read).toMatchObject({ sourceIds: null, expiresAt: null });
        }
      }));

    it("refuses an empty scope and an expiry in the past, creating nothing", () =>
      withStore(async ({ keys }) => {
        await expect(keys.create("empty", { sourceIds: [] })).rejects.toMatchObject({ code: "BAD_REQUEST", param: "sourceIds" });
        await expect(keys.create("blank", { sourceIds: [""] })).rejects.toMatchObject({ code: "BAD_REQUEST", param: "sourceIds" });
        await expect(keys.create("past", { expiresAt: new Date(Date.now() - 1000) })).rejects.toMatchObject({ code: "BAD_REQUEST", param: "expiresAt" });
        expect(await keys.count()).toBe(0);
      }));

    it("makes the first key once, however many processes ask at the same moment", () =>
      withStore(async ({ keys, another }) => {
        const stores = [keys, keys, await another(), await another(), keys, await another()];
        const made = (await Promise.all(stores.map((store) => store.createFirst("first-run")))).filter((k) => k !== null);
        expect(made).toHaveLength(1);
        expect(made[0]).toMatchObject({ name: "first-run", sourceIds: null, expiresAt: null });
        expect(await keys.verify(made[0]!.key)).toMatchObject({ id: made[0]!.id });
        expect(await keys.count()).toBe(1);
        expect(await (await another()).createFirst("first-run")).toBeNull();
      }));

    it("makes no first key once the store holds a key, even a revoked one", () =>
      withStore(async ({ keys }) => {
        const earlier = await keys.create("made-by-hand");
        await keys.revoke(earlier.id);
        expect(await keys.createFirst("first-run")).toBeNull();
        expect(await keys.count()).toBe(1);
      }));

    it("revokes a key once: verify and getActive refuse it, list shows when", () =>
      withStore(async ({ keys }) => {
        const created = await keys.create("to-revoke");
        const other = await keys.create("other");
        expect(await keys.revoke(created.id)).toBe(true);
        expect(await keys.revoke(created.id)).toBe(false);
        expect(await keys.revoke("no-such-id")).toBe(false);
        expect(await keys.verify(created.key)).toBeNull();
        expect(await keys.getActive(created.id)).toBeNull();
        expect((await keys.list()).find((k) => k.id === created.id)?.revokedAt).toBeInstanceOf(Date);
        expect(await keys.verify(other.key)).toMatchObject({ id: other.id });
      }));

    it("refuses a key from its expiry on, by the store's clock", () =>
      withStore(async ({ keys }, clock) => {
        const created = await keys.create("expiring", { expiresAt: new Date(clock.now().getTime() + HOUR) });
        clock.advance(HOUR - 60_000);
        expect(await keys.verify(created.key)).toMatchObject({ id: created.id });
        expect(await keys.getActive(created.id)).toMatchObject({ id: created.id });
        clock.advance(60_000);
        expect(await keys.verify(created.key)).toBeNull();
        expect(await keys.getActive(created.id)).toBeNull();
        // Still listed, with its expiry, so an operator can see why it stopped.
        expect((await keys.list()).find((k) => k.id === created.id)?.expiresAt).toBeInstanceOf(Date);
      }));

    it("refuses a key once its expiry has passed in real time", () =>
      withStore(async ({ keys }) => {
        const created = await keys.create("brief", { expiresAt: new Date(Date.now() + 400) });
        expect(await keys.verify(created.key)).toMatchObject({ id: created.id });
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await keys.verify(created.key)).toBeNull();
        expect(await keys.getActive(created.id)).toBeNull();
      }));
  });
}
