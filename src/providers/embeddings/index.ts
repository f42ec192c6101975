import type { Config } from '../../config'
import { LocalEmbeddings } from './local'
import { OpenAiEmbeddings } from './openai'
import type { EmbeddingProvider } from './types'

export * from './types'
export { embedIsolating, type IsolatedEmbeddings } from './isolate'
export { LocalEmbeddings } from './local'
export { OpenAiEmbeddings } from './openai'

/** The OpenAI-compatible service when EMBEDDING_BASE_URL is set, otherwise the local embedder. */
export function createEmbeddings(config: Pick<Config, 'embedding'>): EmbeddingProvider {
  const { baseUrl, apiKey, model, dimensions } = config.embedding
  if (baseUrl) return new OpenAiEmbeddings({ baseUrl, apiKey, model, dimensions })
  return new LocalEmbeddings(dimensions)
}
