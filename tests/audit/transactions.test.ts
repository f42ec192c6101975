import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { customers } from '../../src/modules/customer/schema'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'
import { rejection } from '../support/wait'
import { from, only, stored } from './support'
import { customerDeleted } from '../../src/modules/customer/events'

let h: Harness
let owner: RegisteredUser
let org: Provisioned
/** A customer whose deletion a listener makes fail, after the audit event is written. */
let doomed = ''
beforeAll(async () => {
  h = await createHarness({ TRUST_PROXY: 'on' })
  owner = await h.register()
  org = await provision(h, owner)
  h.app.bus.on(customerDeleted, async (_tx, { payload }) => {
    if (payload.id === doomed) throw new Error('a later step of the deletion failed')
  })
})
afterAll(() => h.close())

const principal = (user: RegisteredUser) => ({ kind: 'user' as const, userId: user.user.id, sessionId: null, apiTokenId: null })
const signsIn = async (user: RegisteredUser, password: string) =>
  (await h.call('POST', '/auth/login', { body: { email: user.email, password } })).status === 200

describe('an audit event shares the transaction of its change', () => {
  test('a change that rolls back leaves no event', async () => {
    const user = await h.register()
    await rejection(
      h.db.transaction(async (tx) => {
        await h.app.services.auth.accounts.setPassword(tx, user.user.id, 'rolled-back-password', 'password_changed', principal(user))
        throw new Error('the caller failed afterwards')
      }),
      'the caller failed afterwards',
    )
    expect((await stored(h, 'auth.password.changed')).filter((r) => r.targetId === user.user.id)).toEqual([])
    expect(await signsIn(user, user.password)).toBe(true)
    expect(await signsIn(user, 'rolled-back-password')).toBe(false)
  })

  test('a request whose change fails after the event was written leaves neither', async () => {
    const victim = await customerOf(h, org, owner)
    doomed = victim.customerId
    const res = await h.call('DELETE', `/customer/customers/${victim.customerId}`, from(1, owner, org.ecosystem.id))
    expect(res.status).toBe(500)
    expect(await stored(h, 'customer.customer.deleted')).toEqual([])
    expect(await h.db.select({ id: customers.id }).from(customers).where(eq(customers.id, victim.customerId))).toHaveLength(1)
    doomed = ''
    expect((await h.call('DELETE', `/customer/customers/${victim.customerId}`, from(2, owner, org.ecosystem.id))).status).toBe(204)
    expect((await only(h, 'customer.customer.deleted', victim.customerId)).requestId).toBe('audit-req-2')
  })

  test('a change never commits without its event: an event that cannot be written undoes the change', async () => {
    const user = await h.register()
    // PostgreSQL refuses a NUL character in text: the event's insert fails inside the change's transaction.
    const by = { ...principal(user), request: { ip: '203.0.113.9', userAgent: 'broken\u0000agent', requestId: 'r-1' } }
    await rejection(h.db.transaction((tx) => h.app.services.auth.accounts.setPassword(tx, user.user.id, 'never-committed-1', 'password_changed', by)))
    expect(await signsIn(user, user.password)).toBe(true)
    expect(await signsIn(user, 'never-committed-1')).toBe(false)
    expect((await stored(h, 'auth.password.changed')).filter((r) => r.targetId === user.user.id)).toEqual([])
  })

  test('a refused change writes nothing', async () => {
    const before = (await stored(h, 'team.member.removed')).length + (await stored(h, 'team.member.left')).length
    const members = await h.call('GET', `/team/members?organizationId=${org.organization.id}`, { token: owner.token })
    // The last owner cannot leave: 409, no event.
    expect((await h.call('DELETE', `/team/members/${members.body.items[0].id}`, { token: owner.token })).status).toBe(409)
    expect((await stored(h, 'team.member.removed')).length + (await stored(h, 'team.member.left')).length).toBe(before)
  })
})
