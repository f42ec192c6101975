import { afterAll, describe, expect, test } from 'bun:test'
import { type EmbeddingProvider, LocalEmbeddings, OpenAiEmbeddings } from '../../src/providers/embeddings'
import { startFakeEmbeddings } from '../support/fake-embeddings'

/** One contract for every EmbeddingProvider adapter: what persona memory relies on. */
const fake = startFakeEmbeddings({ apiKey: 'sk-embed-test' })
afterAll(() => fake.stop())

const subjects: { name: string; provider: EmbeddingProvider }[] = [
  { name: 'local n-gram embedder', provider: new LocalEmbeddings(384) },
  {
    name: 'OpenAI SDK adapter against a local OpenAI-compatible server',
    provider: new OpenAiEmbeddings({ baseUrl: fake.url, apiKey: 'sk-embed-test', model: 'text-embedding-3-small', dimensions: 384 }),
  },
]

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0))
const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0)

for (const { name, provider } of subjects) {
  describe(`embeddings contract: ${name}`, () => {
    test('names its model and size', () => {
      expect(provider.model).toBeString()
      expect(provider.model.length).toBeGreaterThan(0)
      expect(provider.dimensions).toBe(384)
    })

    test('one unit-length vector per text, in order, of `dimensions` numbers', async () => {
      const texts = ['The user is allergic to peanuts', 'Project deadline is in March', 'Prefers replies in French']
      const vectors = await provider.embed(texts)
      expect(vectors).toHaveLength(3)
      for (const v of vectors) {
        expect(v).toHaveLength(384)
        expect(v.every(Number.isFinite)).toBe(true)
        expect(norm(v)).toBeCloseTo(1, 5)
      }
      const alone = await provider.embed([texts[1]!])
      expect(alone[0]).toEqual(vectors[1]!)
    })

    test('deterministic: the same text always gives the same vector', async () => {
      const [a] = await provider.embed(['Lives in Lyon with two cats'])
      const [b] = await provider.embed(['Lives in Lyon with two cats'])
      expect(a).toEqual(b!)
    })

    test('texts sharing words are closer than unrelated texts', async () => {
      const [query, near, far] = await provider.embed([
        'favourite tea is green tea',
        'the user drinks green tea every morning',
        'quarterly budget review meeting',
      ])
      expect(cosine(query!, near!)).toBeGreaterThan(cosine(query!, far!))
      expect(cosine(query!, near!)).toBeGreaterThan(0.2)
    })

    test('a large batch keeps its order', async () => {
      const texts = Array.from({ length: 150 }, (_, i) => `memory number ${i} about topic ${i % 7}`)
      const vectors = await provider.embed(texts)
      expect(vectors).toHaveLength(150)
      const [v42] = await provider.embed([texts[42]!])
      expect(vectors[42]).toEqual(v42!)
    })

    test('nothing to embed: no vectors', async () => {
      expect(await provider.embed([])).toEqual([])
    })
  })
}
