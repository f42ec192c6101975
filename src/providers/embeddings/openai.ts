import type OpenAI from 'openai'
import { lazyOpenAiClient, loadedOpenAiSdk } from '../openai-sdk'
import { EmbeddingError, type EmbeddingProvider, normalize } from './types'

export interface OpenAiEmbeddingSettings {
  baseUrl: string
  apiKey: string | null
  model: string
  /** Sent as `dimensions`; an answer of another size is refused. */
  dimensions: number
}

/** Statuses that blame the request's texts rather than the service. */
const INPUT_STATUSES = new Set([400, 413, 422])

/** Any OpenAI-compatible /embeddings service (OpenAI, Ollama, vLLM, ...), through the `openai` SDK. */
export class OpenAiEmbeddings implements EmbeddingProvider {
  readonly model: string
  readonly dimensions: number
  private readonly client: () => Promise<OpenAI>

  constructor(settings: OpenAiEmbeddingSettings) {
    this.model = settings.model
    this.dimensions = settings.dimensions
    this.client = lazyOpenAiClient({
      baseURL: settings.baseUrl,
      // The SDK refuses to start without a key; keyless services ignore it.
      apiKey: settings.apiKey ?? 'none',
      maxRetries: 0,
      timeout: 60_000,
      logLevel: 'off',
    })
  }

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<number[][]> {
    if (texts.length === 0) return []
    let data: OpenAI.Embeddings.Embedding[]
    try {
      // Without encoding_format the SDK asks for base64 and turns a float answer into [].
      const res = await (await this.client()).embeddings.create(
        { model: this.model, input: texts, dimensions: this.dimensions, encoding_format: 'float' },
        { signal: options.signal },
      )
      data = res.data
    } catch (err) {
      throw explain(err)
    }
    const out: number[][] = []
    for (const item of data ?? []) {
      if (!Array.isArray(item?.embedding) || typeof item.index !== 'number') continue
      out[item.index] = item.embedding
    }
    for (let i = 0; i < texts.length; i++) {
      const v = out[i]
      if (!v) throw new EmbeddingError('unavailable', `The embedding service answered no vector for input ${i}`)
      if (v.length !== this.dimensions) {
        throw new EmbeddingError('unavailable', `The embedding service answered ${v.length} dimensions; EMBEDDING_DIMENSIONS is ${this.dimensions}`)
      }
      out[i] = normalize(v)
    }
    return out
  }
}

function explain(err: unknown): EmbeddingError {
  const OpenAI = loadedOpenAiSdk()
  if (OpenAI && err instanceof OpenAI.APIUserAbortError) return new EmbeddingError('unavailable', 'The embedding service did not answer in time')
  if (OpenAI && err instanceof OpenAI.APIConnectionError) return new EmbeddingError('unavailable', `The embedding service cannot be reached: ${err.message}`)
  if (OpenAI && err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const kind = INPUT_STATUSES.has(err.status) ? 'input' : 'unavailable'
    return new EmbeddingError(kind, `The embedding service answered ${err.status}: ${err.message}`)
  }
  return new EmbeddingError('unavailable', `The embedding service failed: ${(err as Error)?.message ?? String(err)}`)
}
