import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { embedIsolating, EmbeddingError, LocalEmbeddings, OpenAiEmbeddings } from '../../src/providers/embeddings'
import { LOCAL_EMBEDDING_MODEL } from '../../src/providers/embeddings/local'
import { startFakeEmbeddings } from '../support/fake-embeddings'

const KEY = 'sk-embed-secret-123'
const fake = startFakeEmbeddings({ apiKey: KEY })
afterAll(() => fake.stop())
afterEach(() => {
  fake.failing = []
  fake.down = false
  fake.wrongDimensions = null
  fake.delayMs = 0
  fake.requests.length = 0
})

const adapter = (overrides: Partial<ConstructorParameters<typeof OpenAiEmbeddings>[0]> = {}) =>
  new OpenAiEmbeddings({ baseUrl: fake.url, apiKey: KEY, model: 'text-embedding-3-small', dimensions: 16, ...overrides })

async function failure(promise: Promise<unknown>): Promise<EmbeddingError> {
  try {
    await promise
  } catch (err) {
    expect(err).toBeInstanceOf(EmbeddingError)
    return err as EmbeddingError
  }
  throw new Error('expected a failure')
}

describe('OpenAI-compatible embeddings adapter', () => {
  test('sends the model, the dimensions and float encoding with the API key', async () => {
    await adapter().embed(['hello'])
    expect(fake.requests).toHaveLength(1)
    expect(fake.requests[0]!.authorization).toBe(`Bearer ${KEY}`)
    expect(fake.requests[0]!.body).toMatchObject({ model: 'text-embedding-3-small', input: ['hello'], dimensions: 16, encoding_format: 'float' })
    expect(await adapter().embed([])).toEqual([])
    expect(fake.requests).toHaveLength(1)
  })

  test('a refused input is an `input` error; down, wrong key or unreachable is `unavailable`; the key never shows', async () => {
    fake.failing = ['poison']
    const refused = await failure(adapter().embed(['fine', 'poison pill']))
    expect(refused.kind).toBe('input')
    expect(refused.message).toContain('400')
    fake.failing = []
    fake.down = true
    expect((await failure(adapter().embed(['x']))).kind).toBe('unavailable')
    fake.down = false
    const badKey = await failure(adapter({ apiKey: 'sk-wrong' }).embed(['x']))
    expect(badKey.kind).toBe('unavailable')
    expect(badKey.message).toContain('401')
    const gone = startFakeEmbeddings()
    await gone.stop()
    const unreachable = await failure(adapter({ baseUrl: gone.url }).embed(['x']))
    expect(unreachable.kind).toBe('unavailable')
    for (const e of [refused, badKey, unreachable]) expect(e.message).not.toContain(KEY)
  })

  test('an answer of another size is refused, naming EMBEDDING_DIMENSIONS', async () => {
    fake.wrongDimensions = 8
    const error = await failure(adapter().embed(['x']))
    expect(error.kind).toBe('unavailable')
    expect(error.message).toContain('EMBEDDING_DIMENSIONS')
  })

  test('a service slower than the caller allows is `unavailable`', async () => {
    fake.delayMs = 500
    const error = await failure(adapter().embed(['x'], { signal: AbortSignal.timeout(50) }))
    expect(error.kind).toBe('unavailable')
  })
})

describe('embedIsolating', () => {
  test('isolates the texts the service refuses and embeds all the others', async () => {
    fake.failing = ['poison']
    const texts = Array.from({ length: 20 }, (_, i) => (i === 3 || i === 17 ? `poison ${i}` : `text ${i}`))
    const { vectors, unavailable } = await embedIsolating(adapter(), texts, { timeoutMs: 5000 })
    expect(unavailable).toBeNull()
    expect(vectors.map((v, i) => (v ? null : i)).filter((i) => i !== null)).toEqual([3, 17])
    // Halving finds two bad texts among 20 in far fewer requests than one per text.
    expect(fake.requests.length).toBeLessThan(20)
  })

  test('stops at once when the service is unavailable', async () => {
    fake.down = true
    const texts = Array.from({ length: 200 }, (_, i) => `text ${i}`)
    const { vectors, unavailable } = await embedIsolating(adapter(), texts, { timeoutMs: 5000 })
    expect(unavailable?.kind).toBe('unavailable')
    expect(vectors.every((v) => v === null)).toBe(true)
    expect(fake.requests).toHaveLength(1)
  })
})

describe('local embedder', () => {
  test('its vectors never change under the same model name (bump local-ngram-vN when they must)', async () => {
    const [v] = await new LocalEmbeddings(384).embed(['The user prefers green tea, never coffee.'])
    const fingerprint = v!.reduce((s, x, i) => s + Math.round(x * 1e4) * ((i % 97) + 1), 0)
    expect(LOCAL_EMBEDDING_MODEL).toBe('local-ngram-v1')
    expect(fingerprint).toBe(-162402)
  })
})
