/** Requests and tokens per key, UTC day and model: the usage port. */

/** What one batch adds to a (key, day, model, servedBy) row. */
export interface UsageIncrement {
  keyId: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The model the caller named (`agent`, `provider_a`…). */
  model: string;
  /** What answered: `provider/modelId`. */
  servedBy: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

export type UsageRow = UsageIncrement;

export interface UsageQuery {
  /** Only this key's rows; absent = every key. */
  keyId?: string;
  /** First day included, `YYYY-MM-DD`. */
  sinceDay: string;
  /** Last day included, `YYYY-MM-DD`; absent = up to today. */
  untilDay?: string;
}

export interface UsageStore {
  /** Adds each increment to its row, creating it at zero first; all or nothing. */
  add(increments: readonly UsageIncrement[]): Promise<void>;
  /** Rows ordered by day, then key, model and servedBy. */
  list(query: UsageQuery): Promise<UsageRow[]>;
}

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const utcDay = (at: Date | number): string => new Date(at).toISOString().slice(0, 10);
