import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember } from '../support/tenancy'
import { ecosystemWithPeople, memoryInput, type People, remember } from './support'

let h: Harness
let p: People
let q: People
let admin: RegisteredUser
let persona: string
let alices: any
let bobs: any
let global: any
beforeAll(async () => {
  h = await createHarness()
  p = await ecosystemWithPeople(h)
  q = await ecosystemWithPeople(h)
  persona = p.persona
  admin = await h.register()
  await addMember(h, p.org, p.owner, admin, 'admin')
  alices = await remember(h, p.asAlice, memoryInput(persona, { body: 'Alice is allergic to shellfish' }))
  bobs = await remember(h, p.asBob, memoryInput(persona, { body: 'Bob is allergic to pollen' }))
  global = await remember(h, p.asOwner, memoryInput(persona, { scope: 'persona', body: 'The persona never gives medical advice about allergies' }))
})
afterAll(() => h.close())

const path = (id: string, action = '') => `/persona_memory/memories/${id}${action}`
const listed = async (who: { token: string; headers?: Record<string, string> }) =>
  (await h.call('GET', `/persona_memory/memories?personaId=${persona}&pageSize=100`, who)).body.items.map((m: any) => m.id)
const recalled = async (who: { token: string; headers?: Record<string, string> }) =>
  (await h.call('POST', '/persona_memory/recall', { ...who, body: { personaId: persona, query: 'allergic allergies', limit: 50 } })).body.memories.map(
    (m: any) => m.id,
  )

describe('who sees what', () => {
  test("a customer sees its own memories and the persona's global ones, never another customer's", async () => {
    expect((await listed(p.asAlice)).sort()).toEqual([alices.id, global.id].sort())
    expect((await recalled(p.asAlice)).sort()).toEqual([alices.id, global.id].sort())
    expect((await listed(p.asBob)).sort()).toEqual([bobs.id, global.id].sort())
    const peek = await h.call('GET', path(alices.id), p.asBob)
    expect([peek.status, peek.body.error.code]).toEqual([404, 'not_found'])
    expect(JSON.stringify(peek.body)).not.toContain('shellfish')
    expect(global.customerId).toBe('')
    expect((await h.call('GET', path(global.id), p.asBob)).body).toMatchObject({ id: global.id, scope: 'persona', customerId: '' })
  })

  test("team members act as their own customer: the owner does not see customers' memories either", async () => {
    expect(await listed(p.asOwner)).toEqual([global.id])
    expect(await recalled(p.asOwner)).toEqual([global.id])
    expect((await h.call('GET', path(alices.id), p.asOwner)).status).toBe(404)
  })

  test('nothing crosses ecosystems, even with the same personaId', async () => {
    expect(await listed(q.asAlice)).toEqual([])
    expect(await recalled(q.asAlice)).toEqual([])
    expect(await listed(q.asOwner)).toEqual([])
    for (const m of [alices, global]) {
      expect((await h.call('GET', path(m.id), q.asAlice)).status).toBe(404)
      expect((await h.call('GET', path(m.id), q.asOwner)).status).toBe(404)
    }
    const customerNamingP = await h.call('GET', `/persona_memory/memories?personaId=${persona}`, {
      token: q.alice.token,
      headers: { 'x-ecosystem-id': p.org.ecosystem.id },
    })
    expect(customerNamingP.status).toBe(403)
    const ownerNamingP = await h.call('GET', `/persona_memory/memories?personaId=${persona}`, {
      token: q.owner.token,
      headers: { 'x-ecosystem-id': p.org.ecosystem.id },
    })
    expect(ownerNamingP.status).toBe(403)
  })
})

describe('who changes what', () => {
  test('a persona of another ecosystem: create is 404 persona_not_found and writes nothing; reads answer as for an unknown id', async () => {
    const qs = await remember(h, q.asAlice, memoryInput(q.persona, { body: 'Q is allergic to peanuts' }))
    for (const [who, scope] of [
      [p.asAlice, 'user'],
      [p.asOwner, 'user'],
      [p.asOwner, 'persona'],
    ] as const) {
      const res = await h.call('POST', '/persona_memory/memories', { ...who, body: memoryInput(q.persona, { scope }) })
      expect([res.status, res.body.error.code], scope).toEqual([404, 'persona_not_found'])
    }
    const rows = await queryRows<{ id: string }>(h.db, sql`select id from persona_memory.memories where persona_id = ${q.persona}`)
    expect(rows.map((r) => r.id)).toEqual([qs.id])

    const unknown = crypto.randomUUID()
    for (const who of [p.asAlice, p.asOwner]) {
      const read = async (personaId: string) => {
        const list = await h.call('GET', `/persona_memory/memories?personaId=${personaId}`, who)
        const recall = await h.call('POST', '/persona_memory/recall', { ...who, body: { personaId, query: 'allergic to peanuts' } })
        return [list.status, list.body, recall.status, recall.body]
      }
      expect(await read(q.persona)).toEqual([200, { items: [], total: 0, page: 1, pageSize: 20 }, 200, { memories: [] }])
      expect(await read(unknown)).toEqual(await read(q.persona))
    }
  })

  test("another customer's memory cannot be changed: 404 for every write", async () => {
    const writes = [
      ['PATCH', path(alices.id), { body: 'pwned' }],
      ['DELETE', path(alices.id), undefined],
      ['POST', path(alices.id, '/archive'), undefined],
      ['POST', path(alices.id, '/restore'), undefined],
      ['POST', '/persona_memory/memories', memoryInput(persona, { supersedesId: alices.id })],
    ] as const
    for (const [method, url, body] of writes) {
      for (const who of [p.asBob, p.asOwner, q.asOwner]) expect((await h.call(method, url, { ...who, body })).status, `${method} ${url}`).toBe(404)
    }
    expect((await h.call('GET', path(alices.id), p.asAlice)).body).toMatchObject({ body: 'Alice is allergic to shellfish', status: 'active' })
  })

  test('global memories: customers and plain members may read them but get 403 on every write', async () => {
    for (const who of [p.asAlice, p.asMember]) {
      const create = await h.call('POST', '/persona_memory/memories', { ...who, body: memoryInput(persona, { scope: 'persona' }) })
      expect([create.status, create.body.error.code]).toEqual([403, 'forbidden'])
      for (const [method, url, body] of [
        ['PATCH', path(global.id), { body: 'pwned' }],
        ['DELETE', path(global.id), undefined],
        ['POST', path(global.id, '/archive'), undefined],
        ['POST', '/persona_memory/memories', memoryInput(persona, { scope: 'persona', supersedesId: global.id })],
      ] as const) {
        expect((await h.call(method, url, { ...who, body })).status, `${method} ${url}`).toBe(403)
      }
    }
    expect((await h.call('GET', path(global.id), p.asAlice)).body).toMatchObject({ status: 'active', body: global.body })
  })

  test('ecosystem admins and owners write global memories', async () => {
    const byAdmin = await remember(h, p.org.as(admin), memoryInput(persona, { scope: 'persona' }))
    expect(byAdmin.customerId).toBe('')
    const archived = await h.call('POST', path(byAdmin.id, '/archive'), p.asOwner)
    expect(archived.body.status).toBe('archived')
    expect((await h.call('POST', path(byAdmin.id, '/restore'), p.org.as(admin))).body.status).toBe('active')
    const replaced = await remember(h, p.asOwner, memoryInput(persona, { scope: 'persona', supersedesId: byAdmin.id }))
    expect(replaced.supersedesId).toBe(byAdmin.id)
    expect((await h.call('DELETE', path(replaced.id), p.org.as(admin))).status).toBe(204)
  })

  test("deleting a customer deletes its memories, not the persona's global ones", async () => {
    const carol = await remember(h, p.asBob, memoryInput(persona))
    const res = await h.call('DELETE', `/customer/customers/${p.bob.customerId}`, p.asOwner)
    expect(res.status).toBe(204)
    const rows = await queryRows<{ id: string }>(h.db, sql`select id from persona_memory.memories where id in (${bobs.id}, ${carol.id}, ${global.id})`)
    expect(rows.map((r) => r.id)).toEqual([global.id])
  })
})
