import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { post } from '../chat/support'
import { addMember, customerOf, provision } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
})
afterAll(() => h.close())

const day = (offset: number) =>
  new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) + offset * 86_400_000).toISOString().slice(0, 10)

async function chatSend(token: string, message: string) {
  const { body: conversation } = await h.call('POST', '/chat/conversations', { token, body: {} })
  const res = await post(h, `/chat/conversations/${conversation.id}/messages`, token, { message })
  await res.text()
  expect(res.status).toBe(200)
}

describe('GET /usage/overview', () => {
  test('customers, storage against quota, 7 days of activity, sites down and recent feed items: this ecosystem’s only', async () => {
    const org = await provision(h, owner)
    const as = org.as(owner)
    const ada = await customerOf(h, org, owner, 'ada')
    const bob = await customerOf(h, org, owner, 'bob')
    await h.call('PATCH', `/customer/customers/${ada.customerId}`, { ...as, body: { email: 'ada@example.test' } })
    // Another ecosystem's activity is not this one's.
    const other = await provision(h, owner)
    const stranger = await customerOf(h, other, owner)
    await chatSend(stranger.token, 'elsewhere')

    await chatSend(ada.token, 'hello')
    await chatSend(bob.token, 'hi')
    expect((await h.call('POST', '/messaging/email', { ...as, body: { customerId: ada.customerId, subject: 'Hi', text: 'Welcome' } })).status).toBe(200)
    expect((await h.call('PUT', `/usage/storage/quotas/${ada.customerId}`, { ...as, body: { quotaBytes: 1000 } })).status).toBe(200)
    await h.db.execute(sql`insert into storage.usage (ecosystem_id, customer_id, used_bytes) values (${org.ecosystem.id}, ${ada.customerId}, 950)`)
    const hook = (await h.call('POST', '/integrations/webhooks', { ...as, body: { url: 'https://hooks.example.test/x', events: [] } })).body
    await h.db.execute(
      sql`insert into integrations.deliveries (webhook_id, ecosystem_id, event_type, payload, status, created_at) values (${hook.id}, ${org.ecosystem.id}, 'webhook.test', '{}', 'failed', now() - interval '1 day')`,
    )
    const site = (await h.call('POST', '/monitored_sites/sites', { ...as, body: { name: 'Shop', url: 'https://shop.example.test', intervalMinutes: 60 } })).body
    await h.db.execute(sql`update monitored_sites.sites set state = 'down', state_changed_at = now() where id = ${site.id}`)
    await h.db.execute(
      sql`insert into site.feed_items (ecosystem_id, customer_id, source, entity_type, action, summary) values (${org.ecosystem.id}, ${bob.customerId}, 'community', 'reply', 'created', 'Ada replied to your thread')`,
    )

    // Acting on customer data makes the owner a record of its own in the ecosystem: not a customer,
    // but its files and quota count in the storage figure, its sign-in (at registration) in the team's.
    expect((await h.call('POST', '/data/documents', { ...as, body: { title: 'Owner notes' } })).status).toBe(201)
    expect(await queryRows(h.db, sql`select id from customer.customers where ecosystem_id = ${org.ecosystem.id}`)).toHaveLength(3)
    const res = await h.call('GET', '/usage/overview', as)
    expect(res.status).toBe(200)
    const o = res.body
    expect(o.customers).toBe(2)
    expect(o.storage).toEqual({ usedBytes: 950, quotaBytes: 1000 + 2 * 5 * 1024 ** 3, customersNearQuota: 1 })
    expect(o.days.map((d: { day: string }) => d.day)).toEqual([-6, -5, -4, -3, -2, -1, 0].map(day))
    expect(o.days.at(-1)).toEqual({ day: day(0), signIns: 2, memberSignIns: 1, chatMessages: 2, messagesSent: 1, webhookFailures: 0 })
    expect(o.days.at(-2)).toEqual({ day: day(-1), signIns: 0, memberSignIns: 0, chatMessages: 0, messagesSent: 0, webhookFailures: 1 })
    expect(o.sitesDown).toEqual([{ id: site.id, name: 'Shop', url: 'https://shop.example.test', since: expect.any(String) }])
    expect(o.recent).toEqual([expect.objectContaining({ customerId: bob.customerId, summary: 'Ada replied to your thread' })])
  })

  test('admins and owners only: a member is 403, a customer 403', async () => {
    const org = await provision(h, owner)
    const member = await h.register()
    await addMember(h, org, owner, member, 'member')
    expect((await h.call('GET', '/usage/overview', org.as(member))).status).toBe(403)
    const ada = await customerOf(h, org, owner)
    expect((await h.call('GET', '/usage/overview', { token: ada.token })).status).toBe(403)
  })
})
