/** The embeddings port: texts in, unit-length vectors out (same order). */
export interface Embedder {
  readonly modelId: string;
  embed(texts: string[], options?: { abortSignal?: AbortSignal }): Promise<Float32Array[]>;
}

/** Scales a vector to unit length, so a dot product is the cosine. */
export function normalise(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector);
  let norm = 0;
  for (const x of out) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}
