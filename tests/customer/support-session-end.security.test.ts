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

async function customer() {
  const res = await h.call('POST', '/customer/resolve', { ...org.as(owner), body: { externalId: `ext-${crypto.randomUUID()}`, name: 'Ada' } })
  return res.body.customerId as string
}
const start = (by: RegisteredUser, customerId: string) => h.call('POST', '/customer/support-sessions', { ...org.as(by), body: { customerId } })

describe('DELETE /customer/support-sessions/{id}', () => {
  const end = (by: RegisteredUser, sessionId: string, o: Provisioned = org) => h.call('DELETE', `/customer/support-sessions/${sessionId}`, o.as(by))
  const ended = async (customerId: string) =>
    (await h.call('GET', '/audit/events?action=customer.support_session.ended', org.as(owner))).body.items.filter(
      (e: { target: { id: string } }) => e.target.id === customerId,
    )

  test('ends the session at once, recorded once: the token is refused from its next request', async () => {
    const customerId = await customer()
    const { body } = await start(admin, customerId)
    expect(body.sessionId).toBe(decodeJwt(body.token).sid)
    expect((await h.call('GET', '/customer/me', { token: body.token })).status).toBe(200)
    expect((await end(admin, body.sessionId)).status).toBe(204)
    expect((await h.call('GET', '/customer/me', { token: body.token })).status).toBe(401)
    expect((await end(owner, body.sessionId)).status).toBe(204)
    const rows = await ended(customerId)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ actor: { type: 'user', id: admin.user.id }, metadata: { sessionId: body.sessionId } })
  })

  test("only support sessions of this ecosystem, only by admins: a customer's own session, another ecosystem's and a member get nothing", async () => {
    const customerId = await customer()
    const own = await h.call('POST', '/customer/token', { ...org.as(owner), body: { customerId } })
    const ownSession = decodeJwt(own.body.token).sid as string
    const refused = await end(owner, ownSession)
    expect(refused.status).toBe(404)
    expect(refused.body.error.code).toBe('not_found')
    expect((await h.call('GET', '/customer/me', { token: own.body.token })).status).toBe(200)

    const { body } = await start(owner, customerId)
    const other = await provision(h, owner)
    expect((await end(owner, body.sessionId, other)).status).toBe(404)
    const denied = await end(member, body.sessionId)
    expect(denied.status).toBe(403)
    expect((await h.call('DELETE', `/customer/support-sessions/${body.sessionId}`, { token: body.token })).status).toBe(403)
    expect((await h.call('GET', '/customer/me', { token: body.token })).status).toBe(200)
    expect(await ended(customerId)).toHaveLength(0)
  })

  // Last: it moves the clock past every access token of this file (the owner's is renewed).
  test('an expired session answers as done and is not recorded', async () => {
    const customerId = await customer()
    const { body } = await start(owner, customerId)
    h.advanceClock(16 * 60 * 1000)
    expect((await h.call('GET', '/customer/me', { token: body.token })).status).toBe(401)
    const renewed = await h.call('POST', '/auth/refresh', { body: { refreshToken: owner.refreshToken } })
    Object.assign(owner, { token: renewed.body.token, refreshToken: renewed.body.refreshToken })
    expect((await end(owner, body.sessionId)).status).toBe(204)
    expect(await ended(customerId)).toHaveLength(0)
  })
})
