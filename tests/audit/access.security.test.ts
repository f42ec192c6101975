import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let root: RegisteredUser
let ownerA: RegisteredUser
let adminA: RegisteredUser
let memberA: RegisteredUser
let ownerB: RegisteredUser
let a: Provisioned
let b: Provisioned
let customerA: { token: string; customerId: string }
beforeAll(async () => {
  h = await createHarness()
  root = await h.register() // the first account: platform admin
  ownerA = await h.register()
  adminA = await h.register()
  memberA = await h.register()
  ownerB = await h.register()
  a = await provision(h, ownerA)
  b = await provision(h, ownerB)
  await addMember(h, a, ownerA, adminA, 'admin')
  await addMember(h, a, ownerA, memberA, 'member')
  customerA = await customerOf(h, a, ownerA)
  // Changes in each ecosystem.
  await h.call('PUT', '/site/services/a-hook', { ...a.as(adminA), body: { kind: 'webhook', enabled: true, config: { url: 'https://a.example.test/in' } } })
  await h.call('PUT', '/site/services/b-hook', { ...b.as(ownerB), body: { kind: 'webhook', enabled: true, config: { url: 'https://b.example.test/in' } } })
  await h.call('POST', '/auth/login', { body: { email: ownerB.email, password: 'wrong-password-b' } })
})
afterAll(() => h.close())

const list = (who: { token?: string; headers?: Record<string, string> }, query = '') => h.call('GET', `/audit/events${query}`, who)

describe('GET /audit/events: who reads which events', () => {
  test("an ecosystem's admins and owners read its events and its organization's, nothing of another ecosystem", async () => {
    for (const reader of [ownerA, adminA]) {
      const res = await list(a.as(reader), '?pageSize=100')
      expect(res.status).toBe(200)
      const actions = res.body.items.map((e: { action: string }) => e.action)
      expect(actions).toContain('site.service.created')
      expect(actions).toContain('team.member.added')
      for (const e of res.body.items) {
        expect(e.ecosystemId === a.ecosystem.id || (e.ecosystemId === null && e.organizationId === a.organization.id), JSON.stringify(e)).toBe(true)
      }
      const text = JSON.stringify(res.body)
      for (const foreign of ['b-hook', b.ecosystem.id, b.organization.id, ownerB.user.id, root.user.id]) expect(text).not.toContain(foreign)
    }
    const ofB = await list(b.as(ownerB), '?pageSize=100')
    expect(ofB.status).toBe(200)
    expect(ofB.body.items.map((e: { target: { id: string } }) => e.target.id)).toContain('b-hook')
    const textB = JSON.stringify(ofB.body)
    for (const foreign of ['a-hook', a.ecosystem.id, a.organization.id, adminA.user.id, memberA.user.id]) expect(textB).not.toContain(foreign)
  })

  test('members and customers are refused (403), also naming their own ecosystem', async () => {
    for (const who of [a.as(memberA), { token: customerA.token }, { token: customerA.token, headers: { 'x-ecosystem-id': a.ecosystem.id } }]) {
      const res = await list(who)
      expect(res.status).toBe(403)
      expect(res.body.error.code).toBe('forbidden')
    }
  })

  test("an admin of A naming B (by id or rdid) is refused and sees nothing of B's", async () => {
    for (const ecosystem of [b.ecosystem.id, b.ecosystem.rdid]) {
      for (const reader of [ownerA, adminA, root]) {
        const res = await list({ token: reader.token, headers: { 'x-ecosystem-id': ecosystem } }, '?pageSize=100')
        expect(res.status).toBe(403)
        expect(JSON.stringify(res.body)).not.toContain('b-hook')
      }
    }
  })

  test('account-level events (no ecosystem) for platform admins only', async () => {
    const res = await list({ token: root.token }, '?pageSize=100')
    expect(res.status).toBe(200)
    expect(res.body.items.length).toBeGreaterThan(0)
    for (const e of res.body.items) expect(e.ecosystemId).toBeNull()
    const actions = res.body.items.map((e: { action: string }) => e.action)
    expect(actions).toContain('auth.account.registered')
    expect(actions).toContain('auth.sign_in.failed')
    expect(actions).not.toContain('site.service.created')
    for (const who of [{ token: ownerA.token }, { token: adminA.token }, { token: customerA.token }]) {
      const refused = await list(who)
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe('forbidden')
    }
    expect((await list({})).status).toBe(401)
    expect((await list({ token: 'not-a-token' })).status).toBe(401)
  })
})
