import { createRequire } from "node:module";

/** A sample as parse-prometheus-text-format (prom2json's shape) gives it: counters and gauges have `value`, histograms `buckets`, `count`, `sum`. */
export interface Sample {
  labels?: Record<string, string>;
  value?: string;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}
export interface Family {
  name: string;
  help: string;
  type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
  metrics: Sample[];
}

// A CommonJS package without types: loaded through require so the parser is the published one, untouched.
const parse = createRequire(import.meta.url)("parse-prometheus-text-format") as (text: string) => Family[];

/**
 * The exposition text parsed by a real Prometheus text-format parser, with
 * lookups by name and labels. That parser folds a labelled histogram's series
 * into one (its open issue #13), so histograms are read a second time as the
 * plain series they are on the wire (`<name>_count{…}`, one family per run
 * of lines).
 */
export function parseMetrics(text: string) {
  const families = parse(text);
  const series = parse(text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped"));
  const family = (name: string) => families.find((f) => f.name === name);
  const matches = (sample: Sample, labels: Record<string, string>) => Object.entries(labels).every(([k, v]) => sample.labels?.[k] === v);
  const sum = (samples: Sample[] | undefined, labels: Record<string, string>) =>
    (samples ?? []).filter((s) => matches(s, labels)).reduce((n, s) => n + Number(s.value ?? 0), 0);
  /** A counter's or gauge's value (0 when the series is absent), summed over the series matching `labels`. */
  const value = (name: string, labels: Record<string, string> = {}) => sum(family(name)?.metrics, labels);
  /** A histogram's observation count, summed over the series matching `labels`. */
  const count = (name: string, labels: Record<string, string> = {}) =>
    sum(
      series.filter((f) => f.name === `${name}_count`).flatMap((f) => f.metrics),
      labels,
    );
  return { families, family, value, count };
}
