import type { EvalQuestion } from "./eval-sets.ts";

export type Mode = "explicit" | "agent";

/** What one ask returned. */
export interface Answer {
  refs: string[];
  text: string;
  ms: number;
}

interface ModeTally {
  asked: number;
  /** A gold page anywhere in url_references. */
  hit: number;
  /** The first reference is a gold page. */
  first: number;
  /** No references at all: the reply refused. */
  refused: number;
  refs: number;
  /** References from the question's own source (routing). */
  onSource: number;
}

const empty = (): ModeTally => ({ asked: 0, hit: 0, first: 0, refused: 0, refs: 0, onSource: 0 });

/** URLs compare without fragment, trailing slash, `.html` or a final `/index`. */
export const normaliseUrl = (url: string) =>
  url
    .replace(/#.*$/, "")
    .replace(/\/+$/, "")
    .replace(/\.html?$/, "")
    .replace(/\/index$/, "")
    .toLowerCase();

const ratio = (a: number, b: number) => (b === 0 ? "  n/a" : (a / b).toFixed(3));

/** The figures of one eval set, per mode, and the lines that explain its misses. */
export function createSetTally(name: string) {
  const modes: Record<Mode, ModeTally> = { explicit: empty(), agent: empty() };
  const offTopic = { asked: 0, refused: 0, byKind: new Map<string, { asked: number; refused: number }>() };
  /** Off-topic questions asked of each source by name (explicit mode): refused only when nothing in it is relevant. */
  const offExplicit = { asked: 0, refused: 0 };
  const notes: string[] = [];
  const latency: number[] = [];

  function onTopic(q: EvalQuestion, mode: Mode, answer: Answer, { gold, sourceOf }: { gold: Set<string>; sourceOf: (url: string) => string | null }) {
    const t = modes[mode];
    latency.push(answer.ms);
    t.asked++;
    const hit = answer.refs.some((r) => gold.has(normaliseUrl(r)));
    const first = answer.refs.length > 0 && gold.has(normaliseUrl(answer.refs[0]!));
    if (hit) t.hit++;
    if (first) t.first++;
    if (answer.refs.length === 0) t.refused++;
    t.refs += answer.refs.length;
    const strays = answer.refs.filter((r) => sourceOf(r) !== q.source);
    t.onSource += answer.refs.length - strays.length;
    if (answer.refs.length === 0) notes.push(`  ${q.id} ${mode} REFUSED  ${q.question}`);
    else if (!hit) notes.push(`  ${q.id} ${mode} MISS  ${q.question}\n      ${answer.refs.join(" ")}`);
    else if (!first) notes.push(`  ${q.id} ${mode} not first  ${answer.refs[0]}`);
    if (mode === "agent" && strays.length > 0)
      notes.push(`  ${q.id} agent drew ${strays.length}/${answer.refs.length} references from ${[...new Set(strays.map(sourceOf))].join(", ")}`);
  }

  function offTopicAnswer(q: EvalQuestion, answer: Answer) {
    latency.push(answer.ms);
    offTopic.asked++;
    const kind = q.kind ?? "off-topic";
    const k = offTopic.byKind.get(kind) ?? { asked: 0, refused: 0 };
    k.asked++;
    offTopic.byKind.set(kind, k);
    if (answer.refs.length === 0) {
      offTopic.refused++;
      k.refused++;
    } else notes.push(`  ${q.id} (${kind}) NOT REFUSED  ${q.question}\n      ${answer.refs.join(" ")}`);
  }

  function offTopicExplicit(q: EvalQuestion, source: string, answer: Answer) {
    offExplicit.asked++;
    if (answer.refs.length === 0) offExplicit.refused++;
    else if (process.env.EVAL_VERBOSE_EXPLICIT) notes.push(`  ${q.id} explicit ${source} not refused: ${answer.refs[0]}`);
  }

  function report(baseline: string): string[] {
    const { explicit: e, agent: a } = modes;
    const lines = [`set ${name}: ${e.asked} on-topic, ${offTopic.asked} off-topic questions`];
    if (e.asked > 0) {
      lines.push(
        `                                         explicit   agent   target`,
        `  gold page in url_references           ${ratio(e.hit, e.asked)}     ${ratio(a.hit, a.asked)}   >= 0.95 / >= 0.92`,
        `  first reference right                 ${ratio(e.first, e.asked)}     ${ratio(a.first, a.asked)}   >= 0.80`,
        `  agent routing precision                           ${ratio(a.onSource, a.refs)}   >= 0.95`,
        `  false refusals of on-topic questions  ${`${e.refused}/${e.asked}`.padStart(5)}     ${`${a.refused}/${a.asked}`.padStart(5)}   <= 1% over all sets`,
        `  mean references per answer            ${(e.refs / e.asked).toFixed(2).padStart(5)}     ${(a.refs / Math.max(1, a.asked)).toFixed(2).padStart(5)}   <= 5`,
      );
    }
    if (offTopic.asked > 0) {
      const kinds = [...offTopic.byKind].map(([kind, k]) => `${kind} ${k.refused}/${k.asked}`).join(", ");
      lines.push(
        `  off-topic refused (agent)             ${offTopic.refused}/${offTopic.asked}   target: all${offTopic.byKind.size > 1 ? `   (${kinds})` : ""}`,
      );
      if (offExplicit.asked > 0) lines.push(`  off-topic refused, asked of each source by name (explicit): ${offExplicit.refused}/${offExplicit.asked}`);
    }
    if (e.asked > 0) lines.push(`  ${baseline}`);
    return lines;
  }

  /** One row of the closing table. */
  function row(baseline: string): string {
    const { explicit: e, agent: a } = modes;
    const bm25 = baseline.match(/explicit hit@5 ([\d.]+) \(first ([\d.]+)\), all sources hit@5 ([\d.]+) \(first ([\d.]+)\)/);
    const cells = [
      name.padEnd(9),
      String(e.asked).padStart(3),
      String(offTopic.asked).padStart(3),
      e.asked ? `${ratio(e.hit, e.asked)} ${ratio(e.first, e.asked)}` : "    -     -",
      e.asked ? `${ratio(a.hit, a.asked)} ${ratio(a.first, a.asked)}` : "    -     -",
      e.asked ? ratio(a.onSource, a.refs) : "    -",
      e.asked ? `${e.refused + a.refused}/${e.asked + a.asked}`.padStart(6) : "     -",
      offTopic.asked ? `${offTopic.refused}/${offTopic.asked}`.padStart(6) : "     -",
      bm25 ? `${bm25[1]} ${bm25[2]} | ${bm25[3]} ${bm25[4]}` : "",
    ];
    return cells.join("  ");
  }

  return {
    onTopic,
    offTopic: offTopicAnswer,
    offTopicExplicit,
    report,
    row,
    notes,
    latency,
    falseRefusals: () => modes.explicit.refused + modes.agent.refused,
    asks: () => modes.explicit.asked + modes.agent.asked,
  };
}

export const TABLE_HEADER = `set        on off  explicit    agent       routing  refused  off-ref  plain BM25 explicit | agent
                   gold  first gold  first                            hit@5 first | hit@5 first`;
