import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt } from 'jose'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let admin: RegisteredUser
let member: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  admin = await h.register()
  member = await h.register()
  org = await provision(h, owner)
  await addMember(h, org, owner, admin, 'admin')
  await addMember(h, org, owner, member, 'member')
})
afterAll(() => h.close())

async function customer(o: Provisioned = org) {
  const res = await h.call('POST', '/customer/resolve', { ...o.as(owner), body: { externalId: `ext-${crypto.randomUUID()}`, name: 'Grace' } })
  return res.body.customerId as string
}

const start = (by: RegisteredUser, customerId: string, o: Provisioned = org) =>
  h.call('POST', '/customer/support-sessions', { ...o.as(by), body: { customerId } })

describe('POST /customer/support-sessions', () => {
  test('an admin or owner acts as the customer with one token of at most 15 minutes and no refresh token', async () => {
    for (const who of [owner, admin]) {
      const customerId = await customer()
      const res = await start(who, customerId)
      expect(res.status).toBe(200)
      expect(Object.keys(res.body).sort()).toEqual(['customerId', 'expiresAt', 'sessionId', 'token'])
      const claims = decodeJwt(res.body.token)
      expect(claims).toMatchObject({ typ: 'customer', sub: customerId, eco: org.ecosystem.id })
      expect(claims.exp! - claims.iat!).toBe(900)
      expect(Math.abs(Date.parse(res.body.expiresAt) / 1000 - claims.exp!)).toBeLessThanOrEqual(1)
      expect((await h.call('GET', '/customer/me', { token: res.body.token })).body.id).toBe(customerId)
      const conversation = await h.call('POST', '/chat/conversations', { token: res.body.token, body: { title: 'Support' } })
      expect(conversation.status).toBe(201)
      expect((await h.call('GET', '/chat/conversations', { token: res.body.token })).body.total).toBe(1)
    }
  })

  test('is recorded in the audit log: the admin as actor, the customer as target', async () => {
    const customerId = await customer()
    const res = await start(admin, customerId)
    const log = await h.call('GET', '/audit/events?action=customer.support_session.started', org.as(owner))
    const row = log.body.items.find((e: { target: { id: string } }) => e.target.id === customerId)
    expect(row).toMatchObject({
      actor: { type: 'user', id: admin.user.id },
      action: 'customer.support_session.started',
      target: { type: 'customer', id: customerId },
      ecosystemId: org.ecosystem.id,
      metadata: { sessionId: decodeJwt(res.body.token).sid, expiresAt: res.body.expiresAt },
    })
  })

  test('members get 403; a customer of another ecosystem is 404; customers and anonymous callers are refused', async () => {
    const customerId = await customer()
    const denied = await start(member, customerId)
    expect(denied.status).toBe(403)
    expect(denied.body.error.code).toBe('forbidden')
    const other = await provision(h, owner)
    const foreign = await customer(other)
    const crossed = await start(owner, foreign)
    expect(crossed.status).toBe(404)
    expect(crossed.body.error.code).toBe('not_found')
    expect((await h.call('POST', '/customer/support-sessions', { body: { customerId } })).status).toBe(401)
    const session = await start(owner, customerId)
    expect((await h.call('POST', '/customer/support-sessions', { token: session.body.token, body: { customerId } })).status).toBe(403)
    const log = await h.call('GET', `/audit/events?action=customer.support_session.started&actor=${member.user.id}`, org.as(owner))
    expect(log.body.total).toBe(0)
  })

  test("nobody may act as a team member's own customer record", async () => {
    const own = await h.call('GET', '/customer/me', org.as(member))
    expect(own.body.externalId).toBe(`user:${member.user.id}`)
    const res = await start(owner, own.body.id)
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe('forbidden')
  })

  test('the token is refused on account routes and cannot be refreshed', async () => {
    const { body } = await start(owner, await customer())
    expect((await h.call('GET', '/auth/me', { token: body.token })).status).toBe(401)
    expect((await h.call('GET', '/customer/customers', { token: body.token })).status).toBe(403)
    expect((await h.call('POST', '/customer/refresh', { body: { refreshToken: body.token } })).status).toBe(401)
    expect((await h.call('POST', '/auth/refresh', { body: { refreshToken: body.token } })).status).toBe(401)
  })

  test('the session ends with its token: after 15 minutes it is refused', async () => {
    const { body } = await start(owner, await customer())
    h.advanceClock(14 * 60 * 1000)
    expect((await h.call('GET', '/customer/me', { token: body.token })).status).toBe(200)
    h.advanceClock(60 * 1000 + 1000)
    expect((await h.call('GET', '/customer/me', { token: body.token })).status).toBe(401)
  })
})

describe('a shorter access-token lifetime', () => {
  test('caps the support session', async () => {
    const short = await createHarness({ ACCESS_TOKEN_TTL_SECONDS: '120' })
    try {
      const boss = await short.register()
      const o = await provision(short, boss)
      const resolved = await short.call('POST', '/customer/resolve', { ...o.as(boss), body: { externalId: 'capped' } })
      const res = await short.call('POST', '/customer/support-sessions', { ...o.as(boss), body: { customerId: resolved.body.customerId } })
      const claims = decodeJwt(res.body.token)
      expect(claims.exp! - claims.iat!).toBe(120)
      short.advanceClock(121 * 1000)
      expect((await short.call('GET', '/customer/me', { token: res.body.token })).status).toBe(401)
    } finally {
      await short.close()
    }
  })
})
