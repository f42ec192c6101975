import { beforeAll, expect, test } from 'bun:test'
import fixture from '../fixtures/memory-recall.json'
import type { Harness } from '../support/harness'
import { type People, remember, withEcosystem } from './support'

/**
 * Recall quality of the default (local n-gram) embedder on the labelled set in
 * tests/fixtures/memory-recall.json, through the API. The embedder's weights were chosen on this
 * same small set, so the figure is optimistic; the misses are queries that share only meaning with
 * their memory ("vehicle" for a car), which a word-based embedder cannot find.
 */
const FLOOR_HIT_AT_1 = 0.8

let h: Harness
let p: People
let persona: string
withEcosystem((made) => {
  ;({ h, p } = made)
  persona = p.persona
})
beforeAll(async () => {
  for (const m of fixture.memories) await remember(h, p.asAlice, { personaId: persona, scope: 'user', ...m })
})

test(`local embedder: the labelled memory comes first for at least ${FLOOR_HIT_AT_1 * 100}% of the queries`, async () => {
  let first = 0
  let top3 = 0
  let reciprocal = 0
  const misses: string[] = []
  for (const { query, expected } of fixture.queries) {
    const res = await h.call('POST', '/persona_memory/recall', { ...p.asAlice, body: { personaId: persona, query, limit: 50 } })
    const rank = res.body.memories.findIndex((m: { slug: string }) => m.slug === expected)
    expect(rank, `${query} → ${expected} not recalled at all`).toBeGreaterThanOrEqual(0)
    if (rank === 0) first++
    else misses.push(`"${query}" → ${expected} ranked ${rank + 1}, first ${res.body.memories[0].slug}`)
    if (rank < 3) top3++
    reciprocal += 1 / (rank + 1)
  }
  const n = fixture.queries.length
  const hitAt1 = first / n
  console.log(
    `recall quality (local-ngram-v1, ${fixture.memories.length} memories, ${n} queries): ` +
      `hit@1 ${hitAt1.toFixed(3)}, hit@3 ${(top3 / n).toFixed(3)}, MRR ${(reciprocal / n).toFixed(3)}\n  misses:\n  ${misses.join('\n  ')}`,
  )
  expect(hitAt1).toBeGreaterThanOrEqual(FLOOR_HIT_AT_1)
})
