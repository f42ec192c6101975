import { afterAll, describe, expect, test } from 'bun:test'
import { startFakeEmbeddings } from '../support/fake-embeddings'
import type { Harness } from '../support/harness'
import { memoryInput, newPersona, type People, remember, withEcosystem } from './support'

// The fake service embeds `vec:x,y,z` as exactly that vector, so similarities are known in advance.
const fake = startFakeEmbeddings()
let h: Harness
let p: People
withEcosystem((made) => ({ h, p } = made), { EMBEDDING_BASE_URL: fake.url, EMBEDDING_MODEL: 'fake-embed' })
afterAll(() => fake.stop())

const at = (vector: string, overrides: Record<string, unknown> = {}) => ({ description: `vec:${vector}`, body: `memory at ${vector}`, ...overrides })
async function recall(
  personaId: string,
  query: string,
  extra: Record<string, unknown> = {},
  who: { token: string; headers?: Record<string, string> } = p.asAlice,
) {
  const res = await h.call('POST', '/persona_memory/recall', { ...who, body: { personaId, query, ...extra } })
  if (res.status !== 200) throw new Error(`recall: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.memories as { id: string; similarity: number; slug: string; [field: string]: unknown }[]
}

describe('ranking', () => {
  test('most similar first; cosine in [0, 1] with negatives clamped to 0', async () => {
    const persona = await newPersona(h, p)
    const same = await remember(h, p.asAlice, memoryInput(persona, at('1,0,0')))
    const close = await remember(h, p.asAlice, memoryInput(persona, at('0.8,0.6,0')))
    const orthogonal = await remember(h, p.asAlice, memoryInput(persona, at('0,1,0')))
    const opposite = await remember(h, p.asAlice, memoryInput(persona, at('-1,0,0')))
    const leaning = await remember(h, p.asAlice, memoryInput(persona, at('-0.6,0.8,0')))
    expect(same.embeddingModel).toBe('fake-embed')
    const got = await recall(persona, 'vec:2,0,0')
    expect(got.map((m) => m.id)).toEqual([same.id, close.id, orthogonal.id, leaning.id, opposite.id])
    expect(got[0]!.similarity).toBeCloseTo(1, 6)
    expect(got[1]!.similarity).toBeCloseTo(0.8, 6)
    expect(got[2]!.similarity).toBeCloseTo(0, 6)
    expect(got[3]!.similarity).toBe(0)
    expect(got[4]!.similarity).toBe(0)
    expect(got.every((m) => m.similarity >= 0 && m.similarity <= 1)).toBe(true)
  })

  test('the match carries the spec fields', async () => {
    const persona = await newPersona(h, p)
    const m = await remember(h, p.asAlice, memoryInput(persona, { ...at('0,0,1'), memoryType: 'reference', confidence: 42, tags: ['t'] }))
    const [match] = await recall(persona, 'vec:0,0,1')
    expect(match).toEqual({
      id: m.id,
      personaId: persona,
      scope: 'user',
      slug: m.slug,
      memoryType: 'reference',
      description: m.description,
      body: m.body,
      confidence: 42,
      tags: ['t'],
      similarity: expect.closeTo(1, 6),
    })
  })

  test('limit defaults to 8 and is at most 50; minSimilarity leaves out the weaker ones', async () => {
    const persona = await newPersona(h, p)
    for (let i = 0; i < 10; i++) await remember(h, p.asAlice, memoryInput(persona, at(`1,${i / 10},0`)))
    expect(await recall(persona, 'vec:1,0,0')).toHaveLength(8)
    expect(await recall(persona, 'vec:1,0,0', { limit: 3 })).toHaveLength(3)
    expect(await recall(persona, 'vec:1,0,0', { limit: 50 })).toHaveLength(10)
    for (const limit of [0, 51, 2.5]) {
      const res = await h.call('POST', '/persona_memory/recall', { ...p.asAlice, body: { personaId: persona, query: 'x', limit } })
      expect(res.status, `limit ${limit}`).toBe(400)
    }
    const strong = await recall(persona, 'vec:1,0,0', { limit: 50, minSimilarity: 0.9 })
    // cos(atan(i/10)) >= 0.9 for i = 0..4
    expect(strong).toHaveLength(5)
    expect(strong.every((m) => m.similarity >= 0.9)).toBe(true)
    expect((await h.call('POST', '/persona_memory/recall', { ...p.asAlice, body: { personaId: persona, query: 'x', minSimilarity: 1.5 } })).status).toBe(400)
  })

  test('memoryTypes and tags narrow the candidates (tags: any of them)', async () => {
    const persona = await newPersona(h, p)
    const a = await remember(h, p.asAlice, memoryInput(persona, { ...at('1,0,0'), memoryType: 'project', tags: ['work'] }))
    const b = await remember(h, p.asAlice, memoryInput(persona, { ...at('1,0.1,0'), memoryType: 'feedback', tags: ['style', 'work'] }))
    const c = await remember(h, p.asAlice, memoryInput(persona, { ...at('1,0.2,0'), memoryType: 'user', tags: ['home'] }))
    const ids = async (extra: Record<string, unknown>) => (await recall(persona, 'vec:1,0,0', extra)).map((m) => m.id)
    expect(await ids({ memoryTypes: ['project', 'user'] })).toEqual([a.id, c.id])
    expect(await ids({ tags: ['work'] })).toEqual([a.id, b.id])
    expect(await ids({ tags: ['home', 'style'] })).toEqual([b.id, c.id])
    expect(await ids({ tags: ['home'], memoryTypes: ['project'] })).toEqual([])
    const bad = await h.call('POST', '/persona_memory/recall', { ...p.asAlice, body: { personaId: persona, query: 'x', memoryTypes: ['opinion'] } })
    expect(bad.status).toBe(400)
  })

  test('a query with nothing to embed recalls nothing', async () => {
    const persona = await newPersona(h, p)
    await remember(h, p.asAlice, memoryInput(persona, at('1,0,0')))
    expect(await recall(persona, 'vec:0,0,0')).toEqual([])
  })
})

describe('validity and bookkeeping', () => {
  test('only memories valid now: validFrom inclusive, validTo exclusive, following the clock', async () => {
    // An API token outlives the clock jump that would expire a JWT; the owner acts as its own customer.
    const apiToken = await h.call('POST', '/auth/tokens', { token: p.owner.token, body: { name: 'validity' } })
    const who = { token: apiToken.body.token as string, headers: p.asOwner.headers }
    const persona = await newPersona(h, p)
    const now = Date.now()
    const iso = (ms: number) => new Date(ms).toISOString()
    const always = await remember(h, who, memoryInput(persona, at('1,0,0')))
    const later = await remember(h, who, memoryInput(persona, { ...at('1,0.1,0'), validFrom: iso(now + 3_600_000) }))
    const ending = await remember(h, who, memoryInput(persona, { ...at('1,0.2,0'), validFrom: iso(now - 3_600_000), validTo: iso(now + 1_800_000) }))
    const ended = await remember(h, who, memoryInput(persona, { ...at('1,0.3,0'), validTo: iso(now - 1000) }))
    const ids = async () => (await recall(persona, 'vec:1,0,0', {}, who)).map((m) => m.id)
    expect(await ids()).toEqual([always.id, ending.id])
    h.advanceClock(2 * 3_600_000)
    try {
      expect(await ids()).toEqual([always.id, later.id])
    } finally {
      h.advanceClock(-2 * 3_600_000)
    }
    expect(ended.status).toBe('active')
  })

  test('returned memories get recallCount + 1 and lastRecalledAt; the others are untouched', async () => {
    const persona = await newPersona(h, p)
    const hit = await remember(h, p.asAlice, memoryInput(persona, at('1,0,0')))
    const miss = await remember(h, p.asAlice, memoryInput(persona, at('0,1,0')))
    const before = Date.now()
    await recall(persona, 'vec:1,0,0', { minSimilarity: 0.5 })
    await recall(persona, 'vec:1,0,0', { minSimilarity: 0.5 })
    const got = (await h.call('GET', `/persona_memory/memories/${hit.id}`, p.asAlice)).body
    expect(got.recallCount).toBe(2)
    expect(Date.parse(got.lastRecalledAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(got.updatedAt).toBe(hit.updatedAt)
    const untouched = (await h.call('GET', `/persona_memory/memories/${miss.id}`, p.asAlice)).body
    expect(untouched).toMatchObject({ recallCount: 0, lastRecalledAt: null })
  })
})

describe('when the embedding service fails', () => {
  test('a memory written meanwhile is kept unembedded and not recalled; recall itself answers 503', async () => {
    const persona = await newPersona(h, p)
    fake.down = true
    try {
      const m = await remember(h, p.asAlice, memoryInput(persona, at('1,0,0')))
      expect(m.embeddingModel).toBeNull()
      const res = await h.call('POST', '/persona_memory/recall', { ...p.asAlice, body: { personaId: persona, query: 'vec:1,0,0' } })
      expect([res.status, res.body.error.code]).toEqual([503, 'embedding_unavailable'])
    } finally {
      fake.down = false
    }
    expect(await recall(persona, 'vec:1,0,0')).toEqual([])
    const embed = await h.call('POST', '/persona_memory/embed', { ...p.asOwner, body: {} })
    expect(embed.body.embedded).toBeGreaterThanOrEqual(1)
    expect(await recall(persona, 'vec:1,0,0')).toHaveLength(1)
  })
})
