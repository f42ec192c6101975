import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import type { Harness } from '../support/harness'
import { memoryInput, newPersona, type People, remember, withEcosystem } from './support'

let h: Harness
let p: People
let persona: string
withEcosystem((made) => {
  ;({ h, p } = made)
  persona = p.persona
})

const path = (id: string, action = '') => `/persona_memory/memories/${id}${action}`
/** Rows naming `personaId`, soft-deleted ones included. */
const rowsOf = async (personaId: string) =>
  (await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from persona_memory.memories where persona_id = ${personaId}`))[0]!.n

describe('CRUD', () => {
  test('create answers 201 with the full PersonaMemory, embedded at once by the local embedder', async () => {
    const input = memoryInput(persona, {
      slug: 'drinks',
      memoryType: 'feedback',
      description: 'Drinks',
      body: 'Prefers green tea.',
      tags: ['food', 'food', 'habits'],
      subjectTable: 'crm.contacts',
      subjectId: 'c-1',
      confidence: 80,
      source: 'inferred',
      validFrom: '2020-01-01T00:00:00.000Z',
    })
    const res = await h.call('POST', '/persona_memory/memories', { ...p.asAlice, body: input })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      ownerId: p.org.ecosystem.id,
      customerId: p.alice.customerId,
      personaId: persona,
      scope: 'user',
      slug: 'drinks',
      memoryType: 'feedback',
      description: 'Drinks',
      body: 'Prefers green tea.',
      subjectTable: 'crm.contacts',
      subjectId: 'c-1',
      status: 'active',
      supersedesId: null,
      source: 'inferred',
      confidence: 80,
      tags: ['food', 'habits'],
      validFrom: '2020-01-01T00:00:00.000Z',
      validTo: null,
      recallCount: 0,
      lastRecalledAt: null,
      embeddingModel: 'local-ngram-v1',
      deletedAt: null,
    })
    expect(res.body.createdAt).toBe(res.body.updatedAt)
    const got = await h.call('GET', path(res.body.id), p.asAlice)
    expect(got.status).toBe(200)
    expect(got.body).toEqual(res.body)
  })

  test('defaults: source user_stated, confidence 100, no tags', async () => {
    const m = await remember(h, p.asAlice, memoryInput(persona))
    expect(m).toMatchObject({ source: 'user_stated', confidence: 100, tags: [], subjectTable: null, subjectId: null })
  })

  test('list: paged, newest first, with every filter', async () => {
    const other = await newPersona(h, p)
    const a = await remember(h, p.asBob, memoryInput(other, { memoryType: 'project', tags: ['x'], subjectTable: 't', subjectId: '1' }))
    const b = await remember(h, p.asBob, memoryInput(other, { memoryType: 'reference', tags: ['y'] }))
    const c = await remember(h, p.asBob, memoryInput(other, { memoryType: 'reference', tags: ['x', 'y'] }))
    await h.call('POST', path(c.id, '/archive'), p.asBob)
    const list = async (query: string) => (await h.call('GET', `/persona_memory/memories?personaId=${other}${query}`, p.asBob)).body
    const all = await list('')
    expect(all.total).toBe(3)
    expect(all.items.map((m: any) => m.id)).toEqual([c.id, b.id, a.id])
    expect((await list('&pageSize=2&page=2')).items.map((m: any) => m.id)).toEqual([a.id])
    expect((await list('&memoryType=reference')).items.map((m: any) => m.id)).toEqual([c.id, b.id])
    expect((await list('&tag=x')).items.map((m: any) => m.id)).toEqual([c.id, a.id])
    expect((await list('&status=archived')).items.map((m: any) => m.id)).toEqual([c.id])
    expect((await list('&status=active&tag=y')).items.map((m: any) => m.id)).toEqual([b.id])
    expect((await list('&subjectTable=t&subjectId=1')).items.map((m: any) => m.id)).toEqual([a.id])
    expect((await list('&scope=persona')).total).toBe(0)
    expect((await list('&scope=user')).total).toBe(3)
  })

  test('PATCH edits fields; a new body is embedded again; PATCH {} is 400', async () => {
    const m = await remember(h, p.asAlice, memoryInput(persona))
    const res = await h.call('PATCH', path(m.id), {
      ...p.asAlice,
      body: { body: 'Changed body', confidence: 5, tags: ['a'], validTo: '2999-01-01T00:00:00.000Z' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      body: 'Changed body',
      confidence: 5,
      tags: ['a'],
      validTo: '2999-01-01T00:00:00.000Z',
      embeddingModel: 'local-ngram-v1',
      status: 'active',
    })
    expect(res.body.updatedAt > m.updatedAt).toBe(true)
    const cleared = await h.call('PATCH', path(m.id), { ...p.asAlice, body: { validTo: null, subjectTable: 'notes' } })
    expect(cleared.body).toMatchObject({ validTo: null, subjectTable: 'notes', body: 'Changed body' })
    expect((await h.call('PATCH', path(m.id), { ...p.asAlice, body: {} })).status).toBe(400)
  })

  test('DELETE is a soft delete: 204, then 404 everywhere; the row keeps deletedAt', async () => {
    const m = await remember(h, p.asAlice, memoryInput(persona))
    expect((await h.call('DELETE', path(m.id), p.asAlice)).status).toBe(204)
    for (const [method, action] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/archive'],
      ['POST', '/restore'],
    ] as const) {
      const res = await h.call(method, path(m.id, action), { ...p.asAlice, body: method === 'PATCH' ? { body: 'x' } : undefined })
      expect(res.status, `${method} ${action}`).toBe(404)
      expect(res.body.error.code).toBe('not_found')
    }
    const list = await h.call('GET', `/persona_memory/memories?personaId=${persona}`, p.asAlice)
    expect(list.body.items.some((x: any) => x.id === m.id)).toBe(false)
    const [row] = await queryRows<{ deleted_at: Date | null }>(h.db, sql`select deleted_at from persona_memory.memories where id = ${m.id}`)
    expect(row!.deleted_at).not.toBeNull()
  })

  test('a deleted slug can be used again', async () => {
    const m = await remember(h, p.asAlice, memoryInput(persona, { slug: 'reusable' }))
    await h.call('DELETE', path(m.id), p.asAlice)
    await remember(h, p.asAlice, memoryInput(persona, { slug: 'reusable' }))
  })
})

describe('personaId', () => {
  test('naming no persona of the ecosystem is 404 persona_not_found, for user and global memories, and writes nothing', async () => {
    const unknown = crypto.randomUUID()
    for (const [who, scope] of [
      [p.asAlice, 'user'],
      [p.asOwner, 'user'],
      [p.asOwner, 'persona'],
    ] as const) {
      const res = await h.call('POST', '/persona_memory/memories', { ...who, body: memoryInput(unknown, { scope }) })
      expect([res.status, res.body.error.code], scope).toEqual([404, 'persona_not_found'])
    }
    expect(await rowsOf(unknown)).toBe(0)
  })

  test("deleting a persona deletes all its memories for good (any customer, scope or status); other personas' stay", async () => {
    const doomed = await newPersona(h, p)
    const kept = await remember(h, p.asAlice, memoryInput(persona))
    const alices = await remember(h, p.asAlice, memoryInput(doomed))
    await remember(h, p.asAlice, memoryInput(doomed, { supersedesId: alices.id }))
    const bobs = await remember(h, p.asBob, memoryInput(doomed))
    await h.call('POST', path(bobs.id, '/archive'), p.asBob)
    const deleted = await remember(h, p.asBob, memoryInput(doomed))
    await h.call('DELETE', path(deleted.id), p.asBob)
    await remember(h, p.asOwner, memoryInput(doomed, { scope: 'persona' }))
    expect(await rowsOf(doomed)).toBe(5)

    expect((await h.call('DELETE', `/persona/personas/${doomed}`, p.asOwner)).status).toBe(204)
    expect(await rowsOf(doomed)).toBe(0)
    expect((await h.call('GET', path(alices.id), p.asAlice)).status).toBe(404)
    expect((await h.call('GET', path(kept.id), p.asAlice)).status).toBe(200)
    const again = await h.call('POST', '/persona_memory/memories', { ...p.asAlice, body: memoryInput(doomed) })
    expect([again.status, again.body.error.code]).toEqual([404, 'persona_not_found'])
  })

  test('a persona deleted while memories are written for it leaves none behind', async () => {
    const racing = await newPersona(h, p)
    const creates = Array.from({ length: 20 }, () => h.call('POST', '/persona_memory/memories', { ...p.asAlice, body: memoryInput(racing) }))
    const removed = h.call('DELETE', `/persona/personas/${racing}`, p.asOwner)
    const answers = await Promise.all(creates)
    expect((await removed).status).toBe(204)
    for (const res of answers) expect(res.status === 201 || res.body.error.code === 'persona_not_found', JSON.stringify(res.body)).toBe(true)
    expect(await rowsOf(racing)).toBe(0)
  })
})

describe('validation', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['unknown scope', { scope: 'team' }],
    ['unknown memoryType', { memoryType: 'opinion' }],
    ['unknown source', { source: 'rumour' }],
    ['confidence above 100', { confidence: 101 }],
    ['confidence below 0', { confidence: -1 }],
    ['fractional confidence', { confidence: 50.5 }],
    ['personaId not a uuid', { personaId: 'alice' }],
    ['supersedesId not a uuid', { supersedesId: '42' }],
    ['empty body', { body: '' }],
    ['empty description', { description: '' }],
    ['slug with spaces', { slug: 'two words' }],
    ['validFrom not a date-time', { validFrom: 'yesterday' }],
    ['tags not strings', { tags: [1] }],
    ['validTo before validFrom', { validFrom: '2030-01-01T00:00:00Z', validTo: '2029-01-01T00:00:00Z' }],
  ]
  test.each(bad)('%s is 400 validation_failed', async (_, override) => {
    const res = await h.call('POST', '/persona_memory/memories', { ...p.asAlice, body: memoryInput(persona, override) })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
  })

  test('confidence 0 and 100 are accepted; so is every memoryType and source', async () => {
    for (const confidence of [0, 100]) await remember(h, p.asAlice, memoryInput(persona, { confidence }))
    for (const memoryType of ['user', 'feedback', 'project', 'reference']) await remember(h, p.asAlice, memoryInput(persona, { memoryType }))
    for (const source of ['inferred', 'user_stated', 'tool']) await remember(h, p.asAlice, memoryInput(persona, { source }))
  })

  test('PATCH validates too, against the stored validity window', async () => {
    const m = await remember(h, p.asAlice, memoryInput(persona, { validFrom: '2030-01-01T00:00:00Z' }))
    for (const body of [{ confidence: 200 }, { memoryType: 'x' }, { validTo: '2029-01-01T00:00:00Z' }, { scope: 'persona' }, { status: 'archived' }]) {
      const res = await h.call('PATCH', path(m.id), { ...p.asAlice, body })
      expect(res.status, JSON.stringify(body)).toBe(400)
    }
    expect((await h.call('GET', path(m.id), p.asAlice)).body).toMatchObject({ scope: 'user', status: 'active', validTo: null })
  })

  test('a non-uuid id in the path is 400, an unknown one 404', async () => {
    expect((await h.call('GET', path('nope'), p.asAlice)).status).toBe(400)
    expect((await h.call('GET', path(crypto.randomUUID()), p.asAlice)).status).toBe(404)
  })

  test('an active slug is unique per owner: 409 slug_taken; other customers and other personas may use it', async () => {
    await remember(h, p.asAlice, memoryInput(persona, { slug: 'home-town' }))
    const dup = await h.call('POST', '/persona_memory/memories', { ...p.asAlice, body: memoryInput(persona, { slug: 'home-town' }) })
    expect(dup.status).toBe(409)
    expect(dup.body.error.code).toBe('slug_taken')
    await remember(h, p.asBob, memoryInput(persona, { slug: 'home-town' }))
    await remember(h, p.asAlice, memoryInput(await newPersona(h, p), { slug: 'home-town' }))
    await remember(h, p.asOwner, memoryInput(persona, { slug: 'home-town', scope: 'persona' }))
    const other = await remember(h, p.asAlice, memoryInput(persona))
    const rename = await h.call('PATCH', path(other.id), { ...p.asAlice, body: { slug: 'home-town' } })
    expect(rename.status).toBe(409)
    expect(rename.body.error.code).toBe('slug_taken')
  })
})
