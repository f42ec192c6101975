import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt } from 'jose'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let member: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  member = await h.register()
  org = await provision(h, owner)
  await addMember(h, org, owner, member, 'member')
})
afterAll(() => h.close())

describe('POST /customer/resolve', () => {
  test('the same externalId always gives the same customerId, also under concurrent calls', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => h.call('POST', '/customer/resolve', { ...org.as(owner), body: { externalId: 'crm-42', email: 'c42@example.test' } })),
    )
    expect(results.every((r) => r.status === 200)).toBe(true)
    expect(new Set(results.map((r) => r.body.customerId)).size).toBe(1)
    const again = await h.call('POST', '/customer/resolve', { ...org.as(owner), body: { externalId: 'crm-42' } })
    expect(again.body.customerId).toBe(results[0]!.body.customerId)
    const list = await h.call('GET', '/customer/customers?q=crm-42', org.as(owner))
    expect(list.body.total).toBe(1)
    expect(list.body.items[0]).toMatchObject({ externalId: 'crm-42', email: 'c42@example.test', ecosystemId: org.ecosystem.id })
  })

  test('the ecosystem may be named by rdid; a missing header is 400, an unknown one 404', async () => {
    const byRdid = await h.call('POST', '/customer/resolve', {
      token: owner.token,
      headers: { 'x-ecosystem-id': org.ecosystem.rdid },
      body: { externalId: 'crm-42' },
    })
    expect(byRdid.status).toBe(200)
    const none = await h.call('POST', '/customer/resolve', { token: owner.token, body: { externalId: 'x' } })
    expect(none.status).toBe(400)
    expect(none.body.error.code).toBe('ecosystem_required')
    const unknown = await h.call('POST', '/customer/resolve', {
      token: owner.token,
      headers: { 'x-ecosystem-id': crypto.randomUUID() },
      body: { externalId: 'x' },
    })
    expect(unknown.status).toBe(404)
    expect(
      (await h.call('POST', '/customer/resolve', { token: owner.token, headers: { 'x-ecosystem-id': 'org.no.such' }, body: { externalId: 'x' } })).status,
    ).toBe(404)
  })

  test('members (not admins) get 403 forbidden', async () => {
    const res = await h.call('POST', '/customer/resolve', { ...org.as(member), body: { externalId: 'x' } })
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe('forbidden')
  })
})

describe('POST /customer/register', () => {
  test('creates a customer (201) with a name, an e-mail or an external id, 400 with none; a taken externalId is 409 customer_exists', async () => {
    const res = await h.call('POST', '/customer/register', { ...org.as(owner), body: { externalId: 'reg-1', name: 'Reg', phone: '+15551234567' } })
    expect(res.status).toBe(201)
    expect(typeof res.body.customerId).toBe('string')
    const dup = await h.call('POST', '/customer/register', { ...org.as(owner), body: { externalId: 'reg-1' } })
    expect(dup.status).toBe(409)
    expect(dup.body.error.code).toBe('customer_exists')
    for (const body of [{}, { name: '   ' }, { externalId: ' ', phone: '+15551234567' }]) {
      const anonymous = await h.call('POST', '/customer/register', { ...org.as(owner), body })
      expect(anonymous.status).toBe(400)
      expect(anonymous.body).toEqual({ error: { code: 'validation_failed', message: 'A customer needs a name, an e-mail or an external id' } })
    }
    for (const body of [{ name: 'Only a name' }, { email: 'only@example.test' }, { externalId: 'only-an-id' }]) {
      expect((await h.call('POST', '/customer/register', { ...org.as(owner), body })).status).toBe(201)
    }
    expect((await h.call('POST', '/customer/register', { ...org.as(owner), body: { email: 'not-an-email' } })).status).toBe(400)
  })
})

describe('customer tokens', () => {
  test('token: a short-lived JWT with typ customer, the ecosystem and the customer', async () => {
    const customer = await customerOf(h, org, owner)
    const claims = decodeJwt(customer.token)
    expect(claims).toMatchObject({ typ: 'customer', sub: customer.customerId, eco: org.ecosystem.id })
    expect(claims.exp! - claims.iat!).toBe(900)
    const me = await h.call('GET', '/customer/me', { token: customer.token })
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ id: customer.customerId, ecosystemId: org.ecosystem.id })
  })

  test('a customer token is not an account credential', async () => {
    const customer = await customerOf(h, org, owner)
    expect((await h.call('GET', '/auth/me', { token: customer.token })).status).toBe(401)
    expect((await h.call('GET', '/customer/customers', { token: customer.token })).status).toBe(403)
  })

  test('token for a customer of another ecosystem is 404', async () => {
    const other = await provision(h, owner)
    const foreign = await customerOf(h, other, owner)
    const res = await h.call('POST', '/customer/token', { ...org.as(owner), body: { customerId: foreign.customerId } })
    expect(res.status).toBe(404)
  })

  test('refresh rotates; reuse revokes the session; concurrent refreshes: exactly one wins', async () => {
    const customer = await customerOf(h, org, owner)
    const refreshed = await h.call('POST', '/customer/refresh', { body: { refreshToken: customer.refreshToken } })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.customerId).toBe(customer.customerId)
    expect((await h.call('GET', '/customer/me', { token: refreshed.body.token })).status).toBe(200)
    const replay = await h.call('POST', '/customer/refresh', { body: { refreshToken: customer.refreshToken } })
    expect(replay.status).toBe(401)
    expect((await h.call('GET', '/customer/me', { token: refreshed.body.token })).status).toBe(401)

    const fresh = await customerOf(h, org, owner)
    const race = await Promise.all(Array.from({ length: 6 }, () => h.call('POST', '/customer/refresh', { body: { refreshToken: fresh.refreshToken } })))
    expect(race.filter((r) => r.status === 200)).toHaveLength(1)
  })

  test('revoke signs the customer out at once', async () => {
    const customer = await customerOf(h, org, owner)
    expect((await h.call('POST', '/customer/revoke', { body: { refreshToken: customer.refreshToken } })).status).toBe(204)
    expect((await h.call('GET', '/customer/me', { token: customer.token })).status).toBe(401)
    expect((await h.call('POST', '/customer/refresh', { body: { refreshToken: customer.refreshToken } })).status).toBe(401)
  })

  test('an expired customer token gets 401 token_expired', async () => {
    const customer = await customerOf(h, org, owner)
    h.advanceClock(901_000)
    try {
      const res = await h.call('GET', '/customer/me', { token: customer.token })
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe('token_expired')
    } finally {
      h.advanceClock(-901_000)
    }
  })
})

describe('account users as customers', () => {
  test('a member acting in the ecosystem is its own customer record user:<id>, created once', async () => {
    const [a, b] = await Promise.all([h.call('GET', '/customer/me', org.as(member)), h.call('GET', '/customer/me', org.as(member))])
    expect(a.status).toBe(200)
    expect(a.body.externalId).toBe(`user:${member.user.id}`)
    expect(b.body.id).toBe(a.body.id)
    // It is the member's, not a customer of the ecosystem: the customer list neither shows nor counts it.
    const listed = (await h.call('GET', '/customer/customers?pageSize=100', org.as(owner))).body
    expect(listed.items.map((c: { id: string }) => c.id)).not.toContain(a.body.id)
    expect(listed.items.every((c: { externalId: string | null }) => !c.externalId?.startsWith('user:') && !c.externalId?.startsWith('alert:'))).toBe(true)
    expect(listed.total).toBe(listed.items.length)
    // Asked for, it is listed and counted.
    const all = (await h.call('GET', '/customer/customers?pageSize=100&includeServiceRecords=true', org.as(owner))).body
    expect(all.items.map((c: { id: string }) => c.id)).toContain(a.body.id)
    expect(all.total).toBe(listed.total + all.items.filter((c: { externalId: string | null }) => /^(user|alert):/.test(c.externalId ?? '')).length)
    // Found by id all the same.
    expect((await h.call('GET', `/customer/customers/${a.body.id}`, org.as(owner))).status).toBe(200)
  })

  test("no admin can act as a member: no customer token for a member's record, no renaming it, no user: ids", async () => {
    const record = await h.call('GET', '/customer/me', org.as(member))
    const token = await h.call('POST', '/customer/token', { ...org.as(owner), body: { customerId: record.body.id } })
    expect(token.status).toBe(403)
    expect(token.body.error.code).toBe('forbidden')
    const renamed = await h.call('PATCH', `/customer/customers/${record.body.id}`, { ...org.as(owner), body: { externalId: 'now-mine' } })
    expect(renamed.status).toBe(403)
    expect((await h.call('GET', `/customer/customers/${record.body.id}`, org.as(owner))).body.externalId).toBe(`user:${member.user.id}`)
    expect((await h.call('PATCH', `/customer/customers/${record.body.id}`, { ...org.as(owner), body: { name: 'Renamed' } })).status).toBe(200)
    const other = await h.register()
    const claims = [
      h.call('POST', '/customer/resolve', { ...org.as(owner), body: { externalId: `user:${other.user.id}` } }),
      h.call('POST', '/customer/register', { ...org.as(owner), body: { externalId: `user:${other.user.id}` } }),
      h.call('PATCH', `/customer/customers/${(await customerOf(h, org, owner)).customerId}`, {
        ...org.as(owner),
        body: { externalId: `user:${other.user.id}` },
      }),
    ]
    for (const res of await Promise.all(claims)) {
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('reserved_external_id')
    }
    const list = await h.call('GET', `/customer/customers?q=${other.user.id}`, org.as(owner))
    expect(list.body.total).toBe(0)
  })

  test('API tokens act in the ecosystem like session tokens', async () => {
    const key = await h.call('POST', '/auth/tokens', { token: member.token, body: { name: 'ci' } })
    const res = await h.call('GET', '/customer/me', { token: key.body.token, headers: { 'x-ecosystem-id': org.ecosystem.id } })
    expect(res.status).toBe(200)
    expect(res.body.externalId).toBe(`user:${member.user.id}`)
  })
})

describe('customer administration', () => {
  test('list is paged and searchable; get, patch and delete work within the ecosystem', async () => {
    const ids: string[] = []
    for (const n of [1, 2, 3]) {
      const r = await h.call('POST', '/customer/register', { ...org.as(owner), body: { externalId: `adm-${n}`, email: `Adm${n}@Example.test` } })
      ids.push(r.body.customerId)
    }
    const search = await h.call('GET', '/customer/customers?q=adm2@example', org.as(owner))
    expect(search.body.items.map((c: { id: string }) => c.id)).toEqual([ids[1]])
    const paged = await h.call('GET', '/customer/customers?q=adm-&pageSize=2', org.as(owner))
    expect(paged.body).toMatchObject({ total: 3, pageSize: 2 })
    expect((await h.call('GET', '/customer/customers?q=100%25', org.as(owner))).body.total).toBe(0)
    const got = await h.call('GET', `/customer/customers/${ids[0]}`, org.as(owner))
    expect(got.body).toMatchObject({ id: ids[0], externalId: 'adm-1', email: 'Adm1@Example.test', phone: null })
    const patched = await h.call('PATCH', `/customer/customers/${ids[0]}`, { ...org.as(owner), body: { name: 'Renamed', phone: '+4930123456' } })
    expect(patched.body).toMatchObject({ name: 'Renamed', phone: '+4930123456' })
    expect((await h.call('PATCH', `/customer/customers/${ids[0]}`, { ...org.as(owner), body: { externalId: 'adm-2' } })).status).toBe(409)
    expect((await h.call('PATCH', `/customer/customers/${ids[0]}`, { ...org.as(owner), body: {} })).status).toBe(400)
  })

  test('a patch clears fields with null, but never the last of name, e-mail and external id (400, nothing changed)', async () => {
    const id = (await h.call('POST', '/customer/register', { ...org.as(owner), body: { externalId: 'clear-1', name: 'Clara', phone: '+4930999' } })).body
      .customerId
    const patch = (body: Record<string, unknown>) => h.call('PATCH', `/customer/customers/${id}`, { ...org.as(owner), body })
    expect((await patch({ phone: null, externalId: null })).body).toMatchObject({ externalId: null, name: 'Clara', phone: null })
    const nameless = await patch({ name: null })
    expect(nameless.status).toBe(400)
    expect(nameless.body).toEqual({ error: { code: 'validation_failed', message: 'A customer needs a name, an e-mail or an external id' } })
    expect((await h.call('GET', `/customer/customers/${id}`, org.as(owner))).body.name).toBe('Clara')
    expect((await patch({ name: null, email: 'clara@example.test' })).body).toMatchObject({ name: null, email: 'clara@example.test' })
    expect((await patch({ email: '' })).status).toBe(400)
  })

  test('deleting a customer ends its sessions at once and frees its externalId', async () => {
    const customer = await customerOf(h, org, owner, 'to-delete')
    expect((await h.call('GET', '/customer/me', { token: customer.token })).status).toBe(200)
    expect((await h.call('DELETE', `/customer/customers/${customer.customerId}`, org.as(owner))).status).toBe(204)
    expect((await h.call('GET', '/customer/me', { token: customer.token })).status).toBe(401)
    expect((await h.call('POST', '/customer/refresh', { body: { refreshToken: customer.refreshToken } })).status).toBe(401)
    expect((await h.call('GET', `/customer/customers/${customer.customerId}`, org.as(owner))).status).toBe(404)
    const again = await h.call('POST', '/customer/resolve', { ...org.as(owner), body: { externalId: 'to-delete' } })
    expect(again.body.customerId).not.toBe(customer.customerId)
  })
})
