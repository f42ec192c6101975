import { EmbeddingError, type EmbeddingProvider } from './types'

/** Texts per request. */
const CHUNK = 64

export interface IsolatedEmbeddings {
  /** A vector per text, or null for a text that failed. */
  vectors: (number[] | null)[]
  /** Set when the service was unavailable; the texts not yet embedded then count as failed. */
  unavailable: EmbeddingError | null
}

/**
 * Embeds many texts in requests of CHUNK. A request refused for its input (one bad text fails the
 * whole request at OpenAI) is split in halves until the bad texts stand alone, so the others are
 * still embedded; when the service is unavailable it stops at once instead of retrying each text.
 */
export async function embedIsolating(provider: EmbeddingProvider, texts: string[], options: { timeoutMs: number }): Promise<IsolatedEmbeddings> {
  const vectors: (number[] | null)[] = texts.map(() => null)
  let unavailable: EmbeddingError | null = null

  const run = async (indexes: number[]): Promise<void> => {
    if (unavailable || indexes.length === 0) return
    try {
      const out = await provider.embed(
        indexes.map((i) => texts[i]!),
        { signal: AbortSignal.timeout(options.timeoutMs) },
      )
      for (const [k, i] of indexes.entries()) vectors[i] = out[k]!
    } catch (err) {
      const error = err instanceof EmbeddingError ? err : new EmbeddingError('unavailable', String((err as Error)?.message ?? err))
      if (error.kind !== 'input') unavailable = error
      else if (indexes.length > 1) {
        const half = indexes.length >> 1
        await run(indexes.slice(0, half))
        await run(indexes.slice(half))
      }
    }
  }

  for (let start = 0; start < texts.length && !unavailable; start += CHUNK) {
    await run(Array.from({ length: Math.min(CHUNK, texts.length - start) }, (_, k) => start + k))
  }
  return { vectors, unavailable }
}
