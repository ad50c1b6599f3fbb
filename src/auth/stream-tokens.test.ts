import { describe, expect, it } from "vitest";
import { createStreamTokens } from "./stream-tokens.ts";

describe("graphql-sse stream tokens", () => {
  it("stand for their key until they lapse unused", () => {
    let clock = 0;
    const tokens = createStreamTokens({ idleMs: 1000, now: () => clock });
    const token = tokens.issue("k1");
    clock = 900;
    expect(tokens.use(token)).toBe("k1");
    clock = 1800;
    expect(tokens.use(token)).toBe("k1");
    clock = 3000;
    expect(tokens.use(token)).toBeNull();
    expect(tokens.use("never-issued")).toBeNull();
  });

  it("never lapse while their stream is open: held, then idle from the moment it closes", () => {
    let clock = 0;
    const tokens = createStreamTokens({ idleMs: 1000, now: () => clock });
    const token = tokens.issue("k1");
    const release = tokens.hold(token);
    clock = 60_000;
    expect(tokens.use(token)).toBe("k1");
    clock = 120_000;
    release();
    release(); // once only: a second call changes nothing
    clock = 120_900;
    expect(tokens.use(token)).toBe("k1");
    clock = 122_000;
    expect(tokens.use(token)).toBeNull();
    expect(tokens.hold("never-issued")).toBeTypeOf("function");
  });

  it("never give up a held token to make room, for its own key or for others", () => {
    const tokens = createStreamTokens({ max: 3, perKey: 3 });
    const open = tokens.issue("k");
    tokens.hold(open);
    for (let i = 0; i < 5; i++) tokens.issue("k");
    for (let i = 0; i < 5; i++) tokens.issue(`other-${i}`);
    expect(tokens.use(open)).toBe("k");
  });

  it("one key reserving in a loop gives up its own oldest tokens, never another key's", () => {
    const tokens = createStreamTokens({ max: 100, perKey: 4 });
    const others = Array.from({ length: 90 }, (_, i) => tokens.issue(`other-${i}`));
    const flood = Array.from({ length: 1000 }, () => tokens.issue("flooder"));
    for (const [i, token] of others.entries()) expect(tokens.use(token)).toBe(`other-${i}`);
    // The flooder keeps only its last four.
    expect(flood.slice(0, -4).filter((token) => tokens.use(token) !== null)).toEqual([]);
    for (const token of flood.slice(-4)) expect(tokens.use(token)).toBe("flooder");
  });

  it("still holds at most `max` tokens across many keys, dropping the least recently used", () => {
    const tokens = createStreamTokens({ max: 3, perKey: 4 });
    const [a, b] = [tokens.issue("a"), tokens.issue("b")];
    tokens.issue("c");
    expect(tokens.use(a)).toBe("a");
    tokens.issue("d");
    expect(tokens.use(b)).toBeNull();
    expect(tokens.use(a)).toBe("a");
  });

  it("names every token it gives up, lapsed ones at the next reservation, so what each reserved is let go as well", () => {
    let clock = 0;
    const dropped: string[] = [];
    const tokens = createStreamTokens({ idleMs: 1000, max: 10, perKey: 2, now: () => clock, onDrop: (token) => dropped.push(token) });
    const [first, second] = [tokens.issue("k"), tokens.issue("k")];
    const open = tokens.issue("other");
    tokens.hold(open);
    expect(tokens.unopened(open)).toBe(false);
    expect(tokens.unopened(first)).toBe(true);
    expect(tokens.unopened("never-issued")).toBe(false);
    // Evicted: the key's third reservation gives up its first.
    const third = tokens.issue("k");
    expect(dropped).toEqual([first]);
    // Never used again, the others lapse at the next reservation; the held one never does.
    clock = 5000;
    tokens.issue("late");
    expect(dropped.sort()).toEqual([first, second, third].sort());
    expect(tokens.use(open)).toBe("other");
    tokens.revoke(open);
    expect(dropped).toContain(open);
  });
});
