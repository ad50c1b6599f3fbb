import type { Reference } from "./references.ts";

/** A reference as stored with a served completion: enough to point a reader or a writer at the page. */
export type StoredReference = Pick<Reference, "url" | "title" | "sourceId">;

export type Rating = "up" | "down";

/**
 * A completion docent served: what feedback is checked against and the
 * docs-gap report reads. `question`/`answer` are null unless question
 * storage is on (and after its retention).
 */
export interface ServedCompletion {
  /** The `chatcmpl-…` id the caller saw. */
  id: string;
  keyId: string;
  createdAt: Date;
  model: string;
  servedBy: string;
  interface: string;
  sourceIds: string[];
  references: StoredReference[];
  closest: StoredReference[];
  refused: boolean;
  coverage: number | null;
  question: string | null;
  answer: string | null;
  rating: Rating | null;
  comment: string | null;
  ratedAt: Date | null;
}

export type NewServedCompletion = Omit<ServedCompletion, "rating" | "comment" | "ratedAt">;

export interface ServedCompletionQuery {
  /** Served at or after this instant. */
  since: Date;
  /** …and before this one; absent = now. */
  until?: Date;
}

export interface ServedCompletionStore {
  add(records: readonly NewServedCompletion[]): Promise<void>;
  /**
   * Rates a completion served to `keyId`; false when there is none with that
   * id for that key (another key's completion is as unknown as a made-up id).
   */
  rate(id: string, keyId: string, feedback: { rating: Rating; comment: string | null; at: Date }): Promise<boolean>;
  /** Oldest first. */
  list(query: ServedCompletionQuery): Promise<ServedCompletion[]>;
  /** Clears question and answer text of completions served before `before`; returns how many were cleared. */
  forgetText(before: Date): Promise<number>;
  /** Deletes completions served before `before`, ratings and all; returns how many were deleted. */
  forget(before: Date): Promise<number>;
}
