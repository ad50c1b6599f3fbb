/**
 * Hostile request bodies for `npm run bench -- fuzz`: each maker builds one
 * request (a fresh one every call, so no cache on the server helps) from a
 * seeded random source. `worst` marks the kinds that cost the server most.
 */
export interface FuzzContext {
  sources: string[];
  /** The server's limits (characters per message, in all, messages, body bytes). */
  limits: { messageChars: number; inputChars: number; messages: number; bodyBytes: number };
}

export interface FuzzRequest {
  body: string | Blob;
  headers?: Record<string, string>;
  /** False: send no Authorization header. */
  auth?: boolean;
}

export interface Maker {
  name: string;
  weight: number;
  worst?: boolean;
  make(rng: Rng, ctx: FuzzContext): FuzzRequest;
}

export type Rng = { next(): number; int(n: number): number; pick<T>(items: readonly T[]): T };

/** mulberry32: small, seeded, good enough to vary bodies reproducibly. */
export function makeRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n) => Math.floor(next() * n), pick: (items) => items[Math.floor(next() * items.length)]! };
}

/** A sentence of the fixture's CREATE INDEX page: with it the question is covered, so the whole answering path runs. */
const COVERED =
  "CREATE INDEX constructs an index on the specified column of the specified relation, which can be a table or a materialized view. Indexes are primarily used to enhance database performance. ";
const QUESTIONS = [
  "How do I physically reorder a table according to an index?",
  "What does VACUUM do?",
  "How do I create a partial index?",
  "How do I build an index without locking writes in postgres?",
];

let wordCounter = 0;
/** Distinct letter-only words no index holds, never repeated across the run (so no cache helps). */
function distinctWords(chars: number): string {
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    let n = wordCounter++;
    let w = "";
    do {
      w += String.fromCharCode(97 + (n % 26));
      n = Math.floor(n / 26);
    } while (n > 0);
    const word = `q${w}x`;
    out.push(word);
    length += word.length + 1;
  }
  return out.join(" ").slice(0, chars);
}

const uuid = (rng: Rng) => {
  const hex = () => rng.int(16).toString(16);
  const part = (n: number) => Array.from({ length: n }, hex).join("");
  return `${part(8)}-${part(4)}-4${part(3)}-a${part(3)}-${part(12)}`;
};

/** A run of one character class, `chars` UTF-16 units long. */
function run(rng: Rng, chars: number): string {
  const kind = rng.int(8);
  if (kind === 0) return "a".repeat(chars);
  if (kind === 1) return "😀".repeat(Math.floor(chars / 2));
  if (kind === 2) return " ".repeat(chars);
  if (kind === 3) return "!".repeat(chars);
  const from = kind === 4 ? 0x4e00 : kind === 5 ? 0x0300 : 0x61;
  const span = kind === 4 ? 20000 : kind === 5 ? 0x70 : 26;
  let s = "";
  const chunk = Array.from({ length: Math.min(chars, 4096) }, () => String.fromCharCode(from + rng.int(span))).join("");
  while (s.length < chars) s += chunk;
  return s.slice(0, chars);
}

const chat = (content: unknown, extra: object = {}) => ({ model: "agent", messages: [{ role: "user", content }], ...extra });
const json = (value: unknown): FuzzRequest => ({ body: JSON.stringify(value) });
const streamOr = (rng: Rng) => (rng.int(3) === 0 ? { stream: true } : {});

function nested(depth: number, open: string, close: string, leaf: string): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

export const MAKERS: Maker[] = [
  {
    name: "ordinary question",
    weight: 6,
    make: (rng, ctx) => json(chat(rng.pick(QUESTIONS), { ...(rng.int(2) ? { sources: [rng.pick(ctx.sources)] } : {}), ...streamOr(rng) })),
  },
  {
    name: "near-limit distinct words",
    weight: 6,
    worst: true,
    make: (rng, ctx) => {
      const size = Math.max(1000, ctx.limits.messageChars - 1 - rng.int(1000));
      const content = (rng.int(2) ? COVERED : "") + distinctWords(size - COVERED.length);
      return json(chat(content, { ...(rng.int(2) ? { sources: [rng.pick(ctx.sources)] } : {}), ...streamOr(rng) }));
    },
  },
  {
    name: "body-size distinct words",
    weight: 3,
    worst: true,
    make: (rng, ctx) => json(chat(COVERED + distinctWords(Math.floor(ctx.limits.bodyBytes * 0.9) - COVERED.length), streamOr(rng))),
  },
  {
    name: "near-limit long conversation",
    weight: 3,
    worst: true,
    make: (rng, ctx) => {
      const count = Math.max(2, Math.min(ctx.limits.messages, 2 + rng.int(ctx.limits.messages)) - 1);
      const each = Math.max(1, Math.min(ctx.limits.messageChars, Math.floor((ctx.limits.inputChars - 2000) / count)));
      const messages = Array.from({ length: count }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: distinctWords(each) }));
      messages.push({ role: "user", content: `and what about it? ${COVERED}` });
      return json({ model: "agent", messages, ...streamOr(rng) });
    },
  },
  {
    name: "huge single run",
    weight: 5,
    worst: true,
    make: (rng, ctx) => {
      const chars = rng.pick([1000, 20_000, ctx.limits.messageChars - 10, Math.floor(ctx.limits.bodyBytes / 5)]);
      return json(chat(COVERED + run(rng, chars), streamOr(rng)));
    },
  },
  {
    name: "too many messages",
    weight: 4,
    make: (rng) => {
      const count = rng.pick([5_000, 20_000, 100_000]);
      return json({
        model: "agent",
        messages: Array.from({ length: count }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: rng.int(2) ? "hi" : "How do I vacuum?" })),
      });
    },
  },
  {
    name: "many sources",
    weight: 4,
    make: (rng, ctx) => {
      const count = rng.pick([300, 5_000, 50_000]);
      return json(chat(rng.pick(QUESTIONS), { sources: Array.from({ length: count }, (_, i) => (i % 3 === 0 ? rng.pick(ctx.sources) : uuid(rng))) }));
    },
  },
  {
    name: "many text parts",
    weight: 3,
    make: (rng) =>
      json(chat(Array.from({ length: rng.pick([300, 10_000, 100_000]) }, (_, i) => ({ type: "text", text: i % 2 ? "index " : distinctWords(8) })))),
  },
  {
    name: "deep nesting",
    weight: 5,
    make: (rng, ctx) => {
      const depth = rng.pick([100, 10_000, 1_000_000, Math.floor(ctx.limits.bodyBytes / 2.2)]);
      const where = rng.int(5);
      const deep = nested(depth, where % 2 ? "[" : '{"a":', where % 2 ? "]" : "}", "1");
      const head = `{"model":"agent","messages":[{"role":"user","content":"What does VACUUM do?"}]`;
      if (where === 0) return { body: `{"model":"agent","messages":[{"role":"user","content":${deep}}]}` };
      if (where === 1) return { body: `${head},"metadata":${deep}}` };
      if (where === 2)
        return { body: `${head},"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{"type":"object","properties":{"p":${deep}}}}}}` };
      if (where === 3) return { body: `${head},"unknown_field":${deep}}` };
      return { body: deep };
    },
  },
  {
    name: "wrong types",
    weight: 6,
    make: (rng, ctx) =>
      json(
        rng.pick<unknown>([
          { model: 1, messages: [] },
          { model: "agent", messages: "hello" },
          { model: "agent", messages: [1, "two", null, true] },
          { model: "agent", messages: [{ role: 5, content: "x" }] },
          { model: "agent", messages: [{ role: "user", content: { text: "x" } }] },
          { model: "agent", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:x" } }] }] },
          { model: "agent", messages: [{ role: "tool", content: "x" }] },
          { model: "agent", messages: [{ role: "user", content: "hi" }], stream: "yes" },
          { model: "agent", messages: [{ role: "user", content: "hi" }], sources: "all" },
          { model: "agent", messages: [{ role: "user", content: "hi" }], sources: [ctx.sources[0], 7] },
          { model: "agent", messages: [{ role: "user", content: "hi" }], temperature: "hot" },
          { model: "agent", messages: [{ role: "user", content: "hi" }], response_format: "json" },
          { model: "agent", messages: [{ role: "user", content: "hi" }], response_format: { type: "json_schema" } },
          { model: "agent", messages: [{ role: "user", content: "hi" }], stop: [1, 2] },
          { model: "agent", messages: [{ role: "user", content: "hi" }], metadata: { a: 1 } },
          { model: "agent", messages: [{ role: "user", content: "   " }] },
          { model: "agent", messages: [{ role: "assistant", content: "only me" }] },
          { model: "nope", messages: [{ role: "user", content: "hi" }] },
          { model: "provider_a", messages: [{ role: "user", content: "What does VACUUM do?" }] },
          { model: "agent", messages: [{ role: "user", content: null }] },
          { model: ["agent"], messages: [{ role: "user", content: "hi" }] },
          [],
          null,
          "a string",
          12,
        ]),
      ),
  },
  {
    name: "invalid JSON",
    weight: 5,
    make: (rng) => {
      const pick = rng.int(9);
      if (pick === 0) return { body: "" };
      if (pick === 1) return { body: `{"model":"agent","messages":[{"role":"user","content":"What does VACUUM do?"}` };
      if (pick === 2) return { body: `{"model":"agent"} trailing` };
      if (pick === 3) return { body: `\ufeff{"model":"agent","messages":[]}` };
      if (pick === 4) return { body: new Blob([new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d])]) };
      if (pick === 5) return { body: `{"model":"agent","messages":[{"role":"user","content":"x"}],"temperature":NaN}` };
      if (pick === 6) return { body: "{".repeat(100_000) };
      if (pick === 7) return { body: `{"model":"agent","messages":[{"role":"user","content":"${"\\".repeat(10001)}"}]}` };
      return { body: JSON.stringify(chat("What does VACUUM do?")), headers: { "content-type": "text/plain" } };
    },
  },
  {
    name: "huge numbers",
    weight: 4,
    make: (rng) => {
      const field = rng.pick(["temperature", "top_p", "max_tokens", "max_completion_tokens", "seed", "n", "presence_penalty", "frequency_penalty"]);
      const value = rng.pick(["1e308", "-1e308", "1e999", "18446744073709551617", "9".repeat(5000), "-0", "0.0000000000000000000001", "1.5"]);
      return { body: `{"model":"agent","messages":[{"role":"user","content":"What does VACUUM do?"}],"${field}":${value}}` };
    },
  },
  {
    name: "unicode junk",
    weight: 5,
    make: (rng) => {
      const junk = rng.pick([
        "\\ud800",
        "\\udfff\\ud800",
        "\\u0000",
        "\\u200b\\u200e\\u202e",
        "\\u0301".repeat(5000),
        "\\uffff\\ufffe",
        "e\\u0301",
        "\\ud83d\\ude00",
      ]);
      const times = rng.pick([1, 100, 20_000]);
      const text = `What does VACUUM do? ${junk.repeat(Math.min(times, Math.floor(300_000 / junk.length)))} index`;
      const where = rng.int(4);
      if (where === 0) return { body: `{"model":"agent","messages":[{"role":"user","content":"${text}"}]}` };
      if (where === 1) return { body: `{"model":"agent${junk}","messages":[{"role":"user","content":"${text}"}]}` };
      if (where === 2) return { body: `{"model":"agent","messages":[{"role":"user","content":"${text}","name":"${junk}"}],"user":"${junk}"}` };
      return { body: `{"model":"agent","messages":[{"role":"us${junk}er","content":"x"}],"metadata":{"${junk}":"${junk}"}}` };
    },
  },
  {
    name: "catastrophic schema",
    weight: 6,
    worst: true,
    make: (rng) => {
      const pick = rng.int(12);
      const props = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: "string", pattern: "^(a|a)*$" }]));
      // $defs that each refer three times to the next (on one value, or through a member): 3^levels checks.
      const fanOut = (levels: number, member: boolean) => {
        const defs: Record<string, unknown> = { [`d${levels}`]: { type: "string" } };
        for (let i = 0; i < levels; i++) {
          const next = { $ref: `#/$defs/d${i + 1}` };
          defs[`d${i}`] = { anyOf: [0, 1, 2].map((k) => (member ? { type: "object", properties: { a: next }, title: `${k}` } : { ...next, title: `${k}` })) };
        }
        return { $defs: defs, $ref: "#/$defs/d0" };
      };
      const schema: unknown = [
        { type: "object", properties: { s: { type: "string", pattern: "^(a|a)*$" } } },
        { type: "object", patternProperties: { "^(a+)+$": { type: "string" } } },
        { type: "object", properties: props(rng.pick([100, 5_000, 50_000])) },
        { type: "object", properties: { s: { enum: Array.from({ length: 100_000 }, (_, i) => `v${i}`) } } },
        { $ref: "#" },
        { $ref: "https://example.invalid/schema.json" },
        { type: "object", properties: { s: { type: "string", pattern: "(?<=a)b(\\1)" } } },
        { type: "object", properties: { s: { type: "string", pattern: "[" } } },
        { type: "object", properties: { s: { type: "string", pattern: "((a{1,1000}){1,1000}){1,1000}" } } },
        { allOf: Array.from({ length: 2000 }, (_, i) => ({ anyOf: [{ minLength: i }, { pattern: `^(x|x)*${i}$` }] })) },
        fanOut(rng.pick([14, 18, 24]), false),
        fanOut(rng.pick([10, 14]), true),
      ][pick];
      return json(
        chat("What does VACUUM do?", {
          model: rng.pick(["agent", "provider_a"]),
          response_format: { type: "json_schema", json_schema: { name: "s", schema } },
        }),
      );
    },
  },
  {
    name: "field bombs",
    weight: 5,
    make: (rng) => {
      const big = "x".repeat(rng.pick([300, 100_000, 1_000_000]));
      return json(
        rng.pick<unknown>([
          { model: big, messages: [{ role: "user", content: "hi" }] },
          chat("What does VACUUM do?", { stop: [big, big, big, big] }),
          chat("What does VACUUM do?", { stop: Array.from({ length: 10_000 }, () => "x") }),
          chat("What does VACUUM do?", { user: big }),
          chat("What does VACUUM do?", { metadata: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, "v"])) }),
          chat("What does VACUUM do?", { metadata: { k: big } }),
          { model: "agent", messages: [{ role: "user", content: "What does VACUUM do?", name: big }] },
          chat("What does VACUUM do?", { response_format: { type: "json_schema", json_schema: { name: "n", description: big, schema: { type: "object" } } } }),
          chat("What does VACUUM do?", { stream_options: { include_usage: true, [big.slice(0, 5000)]: 1 }, stream: true }),
        ]),
      );
    },
  },
  {
    name: "over the body limit",
    weight: 1,
    make: (_rng, ctx) => json(chat("x".repeat(ctx.limits.bodyBytes + 10))),
  },
  {
    name: "odd requests",
    weight: 2,
    make: (rng) =>
      rng.pick<FuzzRequest>([
        { body: JSON.stringify(chat("What does VACUUM do?")), auth: false },
        { body: JSON.stringify(chat("What does VACUUM do?")), headers: { authorization: `Bearer ${"k".repeat(10_000)}` } },
        { body: JSON.stringify(chat("What does VACUUM do?")), headers: { "content-type": "application/x-www-form-urlencoded" } },
      ]),
  },
];
