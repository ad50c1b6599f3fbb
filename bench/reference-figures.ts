import { createAnchorPrecision } from "./anchor-precision.ts";
import type { EvalSource } from "./debian-docs.ts";

type Mode = "explicit" | "agent";

/**
 * The eval's figures about references, kept apart from bench/eval.ts: whether
 * the first reference is a gold page, and anchor precision (see anchor-precision.ts).
 */
export function createReferenceFigures(sources: readonly EvalSource[], dirOf: (source: EvalSource) => string) {
  const anchors = createAnchorPrecision(sources, dirOf);
  const first = { explicit: 0, agent: 0 };
  const asked = { explicit: 0, agent: 0 };
  let pages = 0;
  return {
    /** One on-topic answer: its text, its `url_references`, and whether a URL is one of the question's gold pages. */
    record(mode: Mode, answer: { text: string; refs: string[] }, isGold: (url: string) => boolean) {
      asked[mode]++;
      if (answer.refs[0] && isGold(answer.refs[0])) first[mode]++;
      anchors.record(answer.text, answer.refs);
      pages += new Set(answer.refs.map((r) => r.replace(/#.*$/, ""))).size;
    },
    report(verbose = false): string {
      const a = anchors.summary();
      const share = (n: number, d: number) => (d ? (n / d).toFixed(3) : "n/a");
      const lines = [
        `  distinct pages per answer             : ${(pages / Math.max(1, asked.explicit + asked.agent)).toFixed(2)}   (a page cited from two sections is two references)`,
        `  first reference is a gold page, explicit: ${share(first.explicit, asked.explicit)}   (target >= 0.80)`,
        `  first reference is a gold page, agent   : ${share(first.agent, asked.agent)}   (target >= 0.80)`,
        `  anchor precision (cited sentences in the section their reference points to, both modes): ${share(a.found, a.cited)} of ${a.cited}   (target >= 0.98)`,
        `      per source: ${a.perSource.join(", ")}; ${a.pageOnly} cited with a page-level reference (no anchor)`,
      ];
      if (verbose || a.misses.length <= 10) for (const miss of a.misses) lines.push(`      not in its section: ${miss}`);
      else lines.push(`      (${a.misses.length} sentences not in their section: --verbose lists them)`);
      return lines.join("\n");
    },
  };
}
