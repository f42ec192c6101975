import { describe, expect, test } from 'bun:test'
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
const statusOf = async (id: string) => (await h.call('GET', path(id), p.asAlice)).body.status
const recalled = async (query: string) =>
  (await h.call('POST', '/persona_memory/recall', { ...p.asAlice, body: { personaId: persona, query, limit: 50 } })).body.memories.map((m: any) => m.id)

describe('active → superseded (create with supersedesId)', () => {
  test('the old memory becomes superseded and the new one points at it, even with the same slug', async () => {
    const old = await remember(h, p.asAlice, memoryInput(persona, { slug: 'city', body: 'Lives in Lyon' }))
    const res = await h.call('POST', '/persona_memory/memories', {
      ...p.asAlice,
      body: memoryInput(persona, { slug: 'city', body: 'Lives in Paris', supersedesId: old.id }),
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ supersedesId: old.id, status: 'active', slug: 'city' })
    expect(await statusOf(old.id)).toBe('superseded')
    const ids = await recalled('Lives in Lyon')
    expect(ids).toContain(res.body.id)
    expect(ids).not.toContain(old.id)
  })

  test('superseded is final: superseding again, archive, restore and edits are 409; delete still works', async () => {
    const old = await remember(h, p.asAlice, memoryInput(persona))
    await remember(h, p.asAlice, memoryInput(persona, { supersedesId: old.id }))
    const again = await h.call('POST', '/persona_memory/memories', { ...p.asAlice, body: memoryInput(persona, { supersedesId: old.id }) })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('not_active')
    const archive = await h.call('POST', path(old.id, '/archive'), p.asAlice)
    expect([archive.status, archive.body.error.code]).toEqual([409, 'not_active'])
    const restore = await h.call('POST', path(old.id, '/restore'), p.asAlice)
    expect([restore.status, restore.body.error.code]).toEqual([409, 'not_archived'])
    const edit = await h.call('PATCH', path(old.id), { ...p.asAlice, body: { body: 'rewrite history' } })
    expect([edit.status, edit.body.error.code]).toEqual([409, 'superseded'])
    expect(await statusOf(old.id)).toBe('superseded')
    expect((await h.call('DELETE', path(old.id), p.asAlice)).status).toBe(204)
  })

  test('an archived memory cannot be superseded (409 not_active), and nothing is created', async () => {
    const old = await remember(h, p.asAlice, memoryInput(persona))
    await h.call('POST', path(old.id, '/archive'), p.asAlice)
    const input = memoryInput(persona, { supersedesId: old.id })
    const res = await h.call('POST', '/persona_memory/memories', { ...p.asAlice, body: input })
    expect([res.status, res.body.error.code]).toEqual([409, 'not_active'])
    const list = await h.call('GET', `/persona_memory/memories?personaId=${persona}`, { ...p.asAlice })
    expect(list.body.items.some((m: any) => m.slug === input.slug)).toBe(false)
    expect(await statusOf(old.id)).toBe('archived')
  })

  test('both in one transaction: when the new memory is refused, the old one stays active', async () => {
    await remember(h, p.asAlice, memoryInput(persona, { slug: 'taken' }))
    const old = await remember(h, p.asAlice, memoryInput(persona))
    const res = await h.call('POST', '/persona_memory/memories', { ...p.asAlice, body: memoryInput(persona, { slug: 'taken', supersedesId: old.id }) })
    expect([res.status, res.body.error.code]).toEqual([409, 'slug_taken'])
    expect(await statusOf(old.id)).toBe('active')
  })

  test('another persona or scope is 400 supersedes_mismatch; a memory the caller cannot see is 404', async () => {
    const old = await remember(h, p.asAlice, memoryInput(persona))
    const otherPersona = await h.call('POST', '/persona_memory/memories', { ...p.asAlice, body: memoryInput(await newPersona(h, p), { supersedesId: old.id }) })
    expect([otherPersona.status, otherPersona.body.error.code]).toEqual([400, 'supersedes_mismatch'])
    const global = await remember(h, p.asOwner, memoryInput(persona, { scope: 'persona' }))
    const ownerUserScope = await h.call('POST', '/persona_memory/memories', { ...p.asOwner, body: memoryInput(persona, { supersedesId: global.id }) })
    expect([ownerUserScope.status, ownerUserScope.body.error.code]).toEqual([400, 'supersedes_mismatch'])
    const bobs = await h.call('POST', '/persona_memory/memories', { ...p.asBob, body: memoryInput(persona, { supersedesId: old.id }) })
    expect(bobs.status).toBe(404)
    expect(await statusOf(old.id)).toBe('active')
  })

  test('two concurrent supersedes of one memory: exactly one wins', async () => {
    const old = await remember(h, p.asAlice, memoryInput(persona))
    const results = await Promise.all(
      [1, 2, 3].map(() => h.call('POST', '/persona_memory/memories', { ...p.asAlice, body: memoryInput(persona, { supersedesId: old.id }) })),
    )
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409])
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'not_active')).toBe(true)
  })
})

describe('active ⇄ archived', () => {
  test('archive hides from recall; restore brings it back; repeating either is 409', async () => {
    const m = await remember(h, p.asAlice, memoryInput(persona, { body: 'Collects vintage typewriters' }))
    expect(await recalled('vintage typewriters')).toContain(m.id)
    const archived = await h.call('POST', path(m.id, '/archive'), p.asAlice)
    expect(archived.status).toBe(200)
    expect(archived.body).toMatchObject({ id: m.id, status: 'archived' })
    expect(await recalled('vintage typewriters')).not.toContain(m.id)
    const twice = await h.call('POST', path(m.id, '/archive'), p.asAlice)
    expect([twice.status, twice.body.error.code]).toEqual([409, 'not_active'])
    const edited = await h.call('PATCH', path(m.id), { ...p.asAlice, body: { confidence: 10 } })
    expect(edited.body).toMatchObject({ status: 'archived', confidence: 10 })
    const restored = await h.call('POST', path(m.id, '/restore'), p.asAlice)
    expect(restored.body).toMatchObject({ status: 'active' })
    expect(await recalled('vintage typewriters')).toContain(m.id)
    const again = await h.call('POST', path(m.id, '/restore'), p.asAlice)
    expect([again.status, again.body.error.code]).toEqual([409, 'not_archived'])
  })

  test('restoring when another active memory took the slug is 409 slug_taken', async () => {
    const m = await remember(h, p.asAlice, memoryInput(persona, { slug: 'pet' }))
    await h.call('POST', path(m.id, '/archive'), p.asAlice)
    await remember(h, p.asAlice, memoryInput(persona, { slug: 'pet' }))
    const res = await h.call('POST', path(m.id, '/restore'), p.asAlice)
    expect([res.status, res.body.error.code]).toEqual([409, 'slug_taken'])
    expect(await statusOf(m.id)).toBe('archived')
  })
})
