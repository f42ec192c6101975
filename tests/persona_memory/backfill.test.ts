import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { runJob } from '../../src/jobs'
import { embedMemories } from '../../src/modules/persona_memory/jobs'
import { buildDeps } from '../../src/boot'
import { loadConfig } from '../../src/config'
import { embedPending } from '../../src/modules/persona_memory/embedding'
import { recall } from '../../src/modules/persona_memory/recall'
import { HNSW_INDEX, prepareMemoryVectors } from '../../src/modules/persona_memory/vectors'
import { queryRows } from '../../src/platform/db'
import { startFakeEmbeddings } from '../support/fake-embeddings'
import { createHarness, type Harness } from '../support/harness'
import { ecosystemWithPeople, memoryInput, newPersona, type People, remember } from './support'

const fake = startFakeEmbeddings()
const env = { EMBEDDING_BASE_URL: fake.url, EMBEDDING_MODEL: 'fake-embed' }
let h: Harness
let p: People
let q: People
beforeAll(async () => {
  h = await createHarness(env)
  p = await ecosystemWithPeople(h)
  q = await ecosystemWithPeople(h)
})
afterAll(async () => {
  await h.close()
  await fake.stop()
})
afterEach(() => {
  fake.down = false
  fake.failing = []
  fake.delayMs = 0
})

const embed = async (limit?: number, who = p.asOwner) => {
  const res = await h.call('POST', '/persona_memory/embed', { ...who, body: limit ? { limit } : {} })
  if (res.status !== 200) throw new Error(`embed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as { embedded: number; failed: number; more: boolean }
}
const modelOf = async (id: string, who = p.asAlice) => (await h.call('GET', `/persona_memory/memories/${id}`, who)).body.embeddingModel
/** Memories of Alice in `of`'s ecosystem, written while the service is down, so they wait for the backfill. */
async function unembedded(of: People, bodies: string[]) {
  fake.down = true
  try {
    const out = []
    for (const body of bodies) out.push(await remember(h, of.asAlice, memoryInput(of.persona, { body })))
    return out
  } finally {
    fake.down = false
  }
}
/** Ecosystem P's memories waiting for an embedding, so each test starts from none. */
async function drain() {
  while ((await embed(500)).more);
}

describe('POST /persona_memory/embed', () => {
  test('failed rows are retried on the next call; `more` is true when the batch was full', async () => {
    await drain()
    const rows = await unembedded(p, ['one', 'poison two', 'three', 'four', 'poison five', 'six'])
    expect(rows.every((m) => m.embeddingModel === null)).toBe(true)
    fake.failing = ['poison']
    // Oldest first: one, two (fails), three, four.
    expect(await embed(4)).toEqual({ embedded: 3, failed: 1, more: true })
    // Rows that never failed again before the one that just failed: five (fails), six, then two (fails again).
    expect(await embed(4)).toEqual({ embedded: 1, failed: 2, more: false })
    expect(await modelOf(rows[1]!.id)).toBeNull()
    fake.failing = []
    expect(await embed(4)).toEqual({ embedded: 2, failed: 0, more: false })
    expect(await embed(4)).toEqual({ embedded: 0, failed: 0, more: false })
    for (const m of rows) expect(await modelOf(m.id)).toBe('fake-embed')
  })

  test('a service that is down fails the whole batch, which the next call retries', async () => {
    await drain()
    await unembedded(p, ['a', 'b', 'c'])
    fake.down = true
    expect(await embed(3)).toEqual({ embedded: 0, failed: 3, more: true })
    fake.down = false
    expect(await embed(3)).toEqual({ embedded: 3, failed: 0, more: true })
    expect(await embed(3)).toEqual({ embedded: 0, failed: 0, more: false })
  })

  test('embeds its own ecosystem only; admins only (members and customers get 403)', async () => {
    await drain()
    const theirs = await unembedded(q, ['in the other ecosystem'])
    expect(await embed(10)).toEqual({ embedded: 0, failed: 0, more: false })
    expect(await modelOf(theirs[0]!.id, q.asAlice)).toBeNull()
    expect((await embed(10, q.asOwner)).embedded).toBe(1)
    for (const who of [p.asMember, p.asAlice]) expect((await h.call('POST', '/persona_memory/embed', { ...who, body: {} })).status).toBe(403)
    for (const limit of [0, 501]) expect((await h.call('POST', '/persona_memory/embed', { ...p.asOwner, body: { limit } })).status).toBe(400)
    const noBody = await h.call('POST', '/persona_memory/embed', p.asOwner)
    expect([noBody.status, noBody.body]).toEqual([200, { embedded: 0, failed: 0, more: false }])
  })

  test('rows embedded by another model are embedded again; superseded and deleted rows are left alone', async () => {
    await drain()
    const persona = await newPersona(h, p)
    const old = await remember(h, p.asAlice, memoryInput(persona))
    const current = await remember(h, p.asAlice, memoryInput(persona, { supersedesId: old.id }))
    const gone = await remember(h, p.asAlice, memoryInput(persona))
    await h.call('DELETE', `/persona_memory/memories/${gone.id}`, p.asAlice)
    await h.db.execute(sql`update persona_memory.memories set embedding_model = 'older-model' where persona_id = ${persona}`)
    expect(await embed(10)).toEqual({ embedded: 1, failed: 0, more: false })
    expect(await modelOf(current.id)).toBe('fake-embed')
    expect(await modelOf(old.id)).toBe('older-model')
  })

  test('an edit made while the backfill waits for the service wins', async () => {
    await drain()
    const [m] = await unembedded(p, ['placeholder'])
    fake.down = true
    await h.call('PATCH', `/persona_memory/memories/${m!.id}`, { ...p.asAlice, body: { description: 'vec:1,0,0' } })
    fake.down = false
    fake.delayMs = 300
    const backfill = embed(10)
    await Bun.sleep(100)
    const edit = h.call('PATCH', `/persona_memory/memories/${m!.id}`, { ...p.asAlice, body: { description: 'vec:0,1,0' } })
    const [result, edited] = await Promise.all([backfill, edit])
    expect(result).toEqual({ embedded: 0, failed: 0, more: false })
    expect(edited.body.embeddingModel).toBe('fake-embed')
    fake.delayMs = 0
    const [best] = (
      await recall(
        h.deps,
        { ecosystemId: p.org.ecosystem.id, organizationId: p.org.organization.id, customerId: p.alice.customerId, actor: { kind: 'customer' } },
        { personaId: m!.personaId, query: 'vec:0,1,0' },
      )
    ).memories
    expect(best?.similarity).toBeCloseTo(1, 6)
  })
})

describe('the embed-memories job', () => {
  async function insertUnembedded(n: number) {
    await h.db.execute(sql`
      insert into persona_memory.memories (owner_id, customer_id, persona_id, scope, slug, memory_type, description, body, source, confidence)
      select ${q.org.ecosystem.id}, ${q.alice.customerId}, ${q.persona}, 'user', 'bulk-' || gen_random_uuid(), 'user', 'bulk memory ' || i, 'body ' || i, 'tool', 50
      from generate_series(1, ${n}) as i`)
  }
  const waiting = async () =>
    (
      await queryRows<{ n: number }>(
        h.db,
        sql`select count(*)::int as n from persona_memory.memories where embedding_model is null and deleted_at is null and status <> 'superseded'`,
      )
    )[0]!.n

  test('is scheduled in JOBS and holds a session lock, not a transaction', async () => {
    const { JOBS } = await import('../../src/modules')
    expect(JOBS).toContain(embedMemories)
    expect(embedMemories.lock).toBe('session')
  })

  test('calls again while batches are full, across ecosystems, until none is left', async () => {
    await drain()
    await embed(500, q.asOwner)
    await insertUnembedded(230)
    await unembedded(p, ['from P'])
    expect(await runJob(h.deps, embedMemories)).toEqual({ embedded: 231, failed: 0 })
    expect(await waiting()).toBe(0)
    expect(await runJob(h.deps, embedMemories)).toEqual({ embedded: 0, failed: 0 })
  })

  test('stops after one batch when nothing can be embedded', async () => {
    await insertUnembedded(150)
    fake.down = true
    expect(await runJob(h.deps, embedMemories)).toEqual({ embedded: 0, failed: 100 })
    fake.down = false
    expect(await runJob(h.deps, embedMemories)).toEqual({ embedded: 150, failed: 0 })
  })

  test('is skipped while another runner holds its lock', async () => {
    const release = await h.deps.database.tryLock('job:embed-memories')
    expect(release).not.toBeNull()
    try {
      expect(await runJob(h.deps, embedMemories)).toBeNull()
    } finally {
      await release!()
    }
    expect(await runJob(h.deps, embedMemories)).not.toBeNull()
  })
})

describe('a new EMBEDDING_DIMENSIONS', () => {
  test('clears vectors of the old size at boot, and the backfill embeds them again at the new size', async () => {
    await drain()
    const persona = await newPersona(h, p)
    const m = await remember(h, p.asAlice, memoryInput(persona, { description: 'vec:0,0,1' }))
    expect(m.embeddingModel).toBe('fake-embed')
    const small = buildDeps(loadConfig({ ...env, EMBEDDING_DIMENSIONS: '8', LOG_LEVEL: 'silent' }), h.deps.database)
    try {
      await prepareMemoryVectors(h.deps.database, 8)
      expect(await modelOf(m.id)).toBeNull()
      const tenant = {
        ecosystemId: p.org.ecosystem.id,
        organizationId: p.org.organization.id,
        customerId: p.alice.customerId,
        actor: { kind: 'customer' as const },
      }
      expect((await recall(small, tenant, { personaId: persona, query: 'vec:0,0,1' })).memories).toEqual([])
      expect((await embedPending(small, { limit: 500 })).failed).toBe(0)
      const [best] = (await recall(small, tenant, { personaId: persona, query: 'vec:0,0,1' })).memories
      expect(best).toMatchObject({ id: m.id, similarity: expect.closeTo(1, 6) })
    } finally {
      await small.rateLimits.close()
      await prepareMemoryVectors(h.deps.database, 384)
    }
  })
})

describe('the HNSW index (where pgvector is)', () => {
  const indexOptions = async () =>
    (
      await queryRows<{ options: string[] | null }>(
        h.db,
        sql`select reloptions as options from pg_class where relname = ${HNSW_INDEX} and relnamespace = 'persona_memory'::regnamespace`,
      )
    )[0]?.options
  test('is built with the denser graph options, and one built before them is built again at boot, recall still answering', async () => {
    if (!h.deps.database.vector) {
      expect(await indexOptions()).toBeUndefined()
      return
    }
    expect(await indexOptions()).toEqual(['m=24', 'ef_construction=128'])
    await h.db.execute(sql.raw(`drop index persona_memory.${HNSW_INDEX}`))
    await h.db.execute(sql.raw(`create index ${HNSW_INDEX} on persona_memory.memories using hnsw (embedding vector_cosine_ops)`))
    expect(await indexOptions()).toBeNull()
    await prepareMemoryVectors(h.deps.database, 384)
    expect(await indexOptions()).toEqual(['m=24', 'ef_construction=128'])
    const persona = await newPersona(h, p)
    const m = await remember(h, p.asAlice, memoryInput(persona, { description: 'vec:1,0,0' }))
    await embed()
    const tenant = {
      ecosystemId: p.org.ecosystem.id,
      organizationId: p.org.organization.id,
      customerId: p.alice.customerId,
      actor: { kind: 'customer' as const },
    }
    expect((await recall(h.deps, tenant, { personaId: persona, query: 'vec:1,0,0' })).memories[0]?.id).toBe(m.id)
  })
})
