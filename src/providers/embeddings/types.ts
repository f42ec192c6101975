/**
 * Turns texts into unit-length vectors (cosine similarity = dot product). Every adapter passes
 * tests/providers/embeddings.contract.test.ts. Failures reject with EmbeddingError only.
 */
export interface EmbeddingProvider {
  /** Recorded as `embeddingModel` on what it embeds; rows embedded under another name are re-embedded. */
  readonly model: string
  readonly dimensions: number
  /** One vector per text, in order; callers send at most 2048 texts at once. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>
}

/**
 * `input`: the service refused these texts (HTTP 400/413/422), so other texts may still succeed;
 * `unavailable`: the service could not be used at all (down, timeout, 401, 429, 5xx, bad answer).
 * The message never carries credentials.
 */
export class EmbeddingError extends Error {
  constructor(
    readonly kind: 'input' | 'unavailable',
    message: string,
  ) {
    super(message)
  }
}

/** Scales `v` to unit length (a zero vector stays zero). */
export function normalize(v: ArrayLike<number>): number[] {
  let sum = 0
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!
  const norm = Math.sqrt(sum)
  return Array.from(v, (x) => (norm > 0 ? x / norm : 0))
}
