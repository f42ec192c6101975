import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { AuditService } from '../../src/modules/audit/service'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { createPersona } from '../support/personas'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'
import { expectNoneStored, expectOrigin, from, only, stored } from './support'
import type { AuditAction } from '../../src/modules'

let h: Harness
let owner: RegisteredUser
let admin: RegisteredUser
let org: Provisioned
let inEco: { ecosystemId: string; organizationId: string }
beforeAll(async () => {
  h = await createHarness({ TRUST_PROXY: 'on', SITE_SERVICE_PRIVATE_ADDRESSES: 'allow' })
  await h.register()
  owner = await h.register()
  admin = await h.register()
  org = await provision(h, owner)
  await addMember(h, org, owner, admin, 'admin')
  inEco = { ecosystemId: org.ecosystem.id, organizationId: org.organization.id }
})
afterAll(() => h.close())

/** Every secret and configuration value these tests send or receive: none may be in any audit event. */
const planted: string[] = []

/** Acting as `user` inside the ecosystem from origin `n`. */
const as = (n: number, user: { token: string } = admin) => from(n, user, org.ecosystem.id)

describe('audit events of an ecosystem', () => {
  test('site services: created with its key names, updated with the names of the keys that changed, deleted; never a value', async () => {
    const config = { host: 'smtp.example.test', port: 587, user: 'mailer', pass: 'smtp-s3cret-audit' }
    planted.push('smtp-s3cret-audit', 'smtp.example.test', 'mailer')
    expect((await h.call('PUT', '/site/services/mail', { ...as(1), body: { kind: 'smtp', enabled: true, config } })).status).toBe(200)
    const created = await only(h, 'site.service.created', 'mail')
    expect(created).toMatchObject({ actorType: 'user', actorId: admin.user.id, targetType: 'site_service', ...inEco })
    expect(created.metadata).toEqual({ slug: 'mail', kind: 'smtp', enabled: true, changedKeys: ['host', 'pass', 'port', 'user'] })
    expectOrigin(created, 1)

    const next = { host: 'smtp.example.test', port: 465, secure: true, pass: 'smtp-s3cret-audit-2' }
    await h.call('PUT', '/site/services/mail', { ...as(2), body: { kind: 'smtp', enabled: false, config: next } })
    const updated = await only(h, 'site.service.updated', 'mail')
    expect(updated.metadata).toEqual({ slug: 'mail', kind: 'smtp', enabled: false, changedKeys: ['pass', 'port', 'secure', 'user'] })
    expectOrigin(updated, 2)

    expect((await h.call('DELETE', '/site/services/mail', as(3))).status).toBe(204)
    expect((await only(h, 'site.service.deleted', 'mail')).metadata).toEqual({ slug: 'mail', kind: 'smtp' })
    const text = JSON.stringify(await stored(h, 'site.service.created')) + JSON.stringify(updated)
    for (const value of ['smtp-s3cret-audit', 'mailer', 'smtp.example.test']) expect(text).not.toContain(value)
    // The ports are looked for in the metadata only: ids and timestamps are full of digits (a uuid holding "587" failed this).
    const metadata = JSON.stringify((await stored(h, 'site.service.created')).map((e: { metadata: unknown }) => e.metadata)) + JSON.stringify(updated.metadata)
    for (const value of ['587', '465']) expect(metadata).not.toContain(value)
  })

  test('webhooks: created, updated, secret rotated, deleted; the host, never the URL or a secret', async () => {
    const created = await h.call('POST', '/integrations/webhooks', {
      ...as(4),
      body: { url: 'https://hooks.example.test/T0/B0/url-token-s3cret', events: ['customer.created'] },
    })
    const id = created.body.id
    planted.push(created.body.secret, 'url-token-s3cret')
    const facts = { host: 'hooks.example.test', events: ['customer.created'], enabled: true }
    const made = await only(h, 'integrations.webhook.created', id)
    expect(made).toMatchObject({ actorId: admin.user.id, targetType: 'webhook', ...inEco, metadata: facts })
    expectOrigin(made, 4)
    await h.call('PATCH', `/integrations/webhooks/${id}`, { ...as(5), body: { enabled: false, description: 'paused' } })
    expect((await only(h, 'integrations.webhook.updated', id)).metadata).toEqual({ ...facts, enabled: false, changed: ['description', 'enabled'] })
    const rotated = await h.call('POST', `/integrations/webhooks/${id}/rotate-secret`, as(6))
    expect(rotated.status).toBe(200)
    planted.push(rotated.body.secret)
    const rotation = await only(h, 'integrations.webhook.secret_rotated', id)
    expect(rotation).toMatchObject({ actorType: 'user', actorId: admin.user.id, ...inEco })
    expectOrigin(rotation, 6)
    expect((await h.call('DELETE', `/integrations/webhooks/${id}`, as(7))).status).toBe(204)
    expectOrigin(await only(h, 'integrations.webhook.deleted', id), 7)
    const text = JSON.stringify([made, rotation])
    for (const secret of [created.body.secret, rotated.body.secret, 'url-token-s3cret']) expect(text).not.toContain(secret)
  })

  test('contract definitions: created, altered, deleted; an admin deleting a row', async () => {
    const created = await h.call('POST', '/contract/contracts', {
      ...as(8),
      body: { name: 'orders', columns: [{ name: 'total', type: 'number' }], access: { read: 'all' } },
    })
    expect(created.status).toBe(201)
    const id = 'orders' // contracts are named, not numbered, in the API
    expect(await only(h, 'contract.contract.created', id)).toMatchObject({
      actorId: admin.user.id,
      targetType: 'contract',
      ...inEco,
      metadata: { name: 'orders', columns: ['total'] },
    })
    await h.call('PATCH', '/contract/contracts/orders', { ...as(9), body: { addColumns: [{ name: 'note', type: 'text' }], dropColumns: ['total'] } })
    const altered = await only(h, 'contract.contract.altered', id)
    expect(altered.metadata).toMatchObject({ name: 'orders', addedColumns: ['note'], droppedColumns: ['total'], version: 2 })
    expectOrigin(altered, 9)

    const alice = await customerOf(h, org, owner)
    const own = await h.call('POST', '/contract/contracts/orders/rows', { token: alice.token, body: { note: 'mine' } })
    const other = await h.call('POST', '/contract/contracts/orders/rows', { token: alice.token, body: { note: 'also mine' } })
    // A customer deleting its own row is not an administrative change.
    expect((await h.call('DELETE', `/contract/contracts/orders/rows/${own.body.id}`, { token: alice.token })).status).toBe(204)
    expect(await stored(h, 'contract.row.deleted')).toEqual([])
    expect((await h.call('DELETE', `/contract/contracts/orders/rows/${other.body.id}`, as(10))).status).toBe(204)
    expect(await only(h, 'contract.row.deleted', other.body.id)).toMatchObject({
      actorId: admin.user.id,
      ...inEco,
      metadata: { contract: 'orders', customerId: alice.customerId },
    })

    expect((await h.call('DELETE', '/contract/contracts/orders', as(11))).status).toBe(204)
    expect(await only(h, 'contract.contract.deleted', id)).toMatchObject({ actorId: admin.user.id, ...inEco, metadata: { name: 'orders' } })
  })

  test('storage quota overrides set and removed', async () => {
    const bob = await customerOf(h, org, owner)
    await h.call('PUT', `/usage/storage/quotas/${bob.customerId}`, { ...as(12), body: { quotaBytes: 1000 } })
    await h.call('PUT', `/usage/storage/quotas/${bob.customerId}`, { ...as(13), body: { quotaBytes: 2000 } })
    const [first, second] = await stored(h, 'storage.quota.set')
    expect(first).toMatchObject({
      actorId: admin.user.id,
      targetType: 'customer',
      targetId: bob.customerId,
      ...inEco,
      metadata: { quotaBytes: 1000, previousQuotaBytes: null },
    })
    expect(second!.metadata).toEqual({ quotaBytes: 2000, previousQuotaBytes: 1000 })
    expectOrigin(second!, 13)
    expect((await h.call('DELETE', `/usage/storage/quotas/${bob.customerId}`, as(14))).status).toBe(204)
    expect(await only(h, 'storage.quota.removed', bob.customerId)).toMatchObject({ ...inEco, metadata: { previousQuotaBytes: 2000 } })
  })

  test('customer tokens issued by an admin, and customers deleted (the id only)', async () => {
    const resolved = await h.call('POST', '/customer/resolve', { ...as(24), body: { externalId: 'carol@shop.example.test' } })
    const tokens = await h.call('POST', '/customer/token', { ...as(25), body: { customerId: resolved.body.customerId } })
    expect(tokens.status).toBe(200)
    planted.push(tokens.body.token, tokens.body.refreshToken)
    const issued = await only(h, 'customer.session.issued', resolved.body.customerId)
    expect(issued).toMatchObject({ actorType: 'user', actorId: admin.user.id, targetType: 'customer', ...inEco, metadata: { sessionId: expect.any(String) } })
    expectOrigin(issued, 25)
    const carol = { customerId: resolved.body.customerId }
    expect((await h.call('DELETE', `/customer/customers/${carol.customerId}`, as(15))).status).toBe(204)
    const deleted = await only(h, 'customer.customer.deleted', carol.customerId)
    expect(deleted).toMatchObject({ actorType: 'user', actorId: admin.user.id, targetType: 'customer', ...inEco, metadata: {} })
    expectOrigin(deleted, 15)
  })

  test('content deleted by admins: community threads, replies and categories, global persona memories', async () => {
    const dave = await customerOf(h, org, owner)
    const thread = (await h.call('POST', '/community/threads', { token: dave.token, body: { title: 'Spam', body: 'buy now' } })).body
    const reply = (await h.call('POST', '/community/replies', { token: dave.token, body: { threadId: thread.id, body: 'more spam' } })).body
    const kept = (await h.call('POST', '/community/threads', { token: dave.token, body: { title: 'Mine', body: 'x' } })).body
    // The author deleting its own post is not moderation.
    expect((await h.call('DELETE', `/community/threads/${kept.id}`, { token: dave.token })).status).toBe(204)
    expect(await stored(h, 'community.thread.deleted')).toEqual([])
    expect((await h.call('DELETE', `/community/replies/${reply.id}`, as(16))).status).toBe(204)
    const replyEvent = await only(h, 'community.reply.deleted', reply.id)
    expect(replyEvent).toMatchObject({ actorId: admin.user.id, targetType: 'reply', ...inEco, metadata: { authorId: dave.customerId } })
    expectOrigin(replyEvent, 16)
    expect((await h.call('DELETE', `/community/threads/${thread.id}`, as(17))).status).toBe(204)
    expect(await only(h, 'community.thread.deleted', thread.id)).toMatchObject({ actorId: admin.user.id, ...inEco, metadata: { authorId: dave.customerId } })
    const category = (await h.call('POST', '/community/categories', { ...as(18), body: { name: 'Off topic', slug: 'off-topic' } })).body
    expect((await h.call('DELETE', `/community/categories/${category.id}`, as(18))).status).toBe(204)
    expect(await only(h, 'community.category.deleted', category.id)).toMatchObject({ actorId: admin.user.id, ...inEco })

    const persona = await createPersona(h, org.as(owner))
    const memory = { personaId: persona.id, memoryType: 'user', description: 'House rule', body: 'Be kind' }
    const global = (await h.call('POST', '/persona_memory/memories', { ...as(19), body: { ...memory, scope: 'persona', slug: 'rule' } })).body
    const mine = (await h.call('POST', '/persona_memory/memories', { token: dave.token, body: { ...memory, scope: 'user', slug: 'mine' } })).body
    expect((await h.call('DELETE', `/persona_memory/memories/${mine.id}`, { token: dave.token })).status).toBe(204)
    expect((await h.call('DELETE', `/persona_memory/memories/${global.id}`, as(19))).status).toBe(204)
    expect(await stored(h, 'persona_memory.memory.deleted')).toMatchObject([
      { targetId: global.id, actorId: admin.user.id, ...inEco, metadata: { personaId: persona.id, slug: 'rule' } },
    ])
  })

  test('a customer acting is a customer actor', async () => {
    // Customers change nothing administrative; the actor shape is shown by an event recorded with a customer tenant.
    const erin = await customerOf(h, org, owner)
    const me = await h.call('GET', '/customer/me', { token: erin.token })
    expect(me.status).toBe(200)
    const tenant = { ecosystemId: org.ecosystem.id, organizationId: org.organization.id, customerId: erin.customerId, actor: { kind: 'customer' as const } }
    await h.db.transaction((tx) =>
      new AuditService(h.deps).record(tx, tenant, { action: 'test.customer.acted' as AuditAction, target: { type: 'customer', id: erin.customerId } }),
    )
    expect(await only(h, 'test.customer.acted', erin.customerId)).toMatchObject({
      actorType: 'customer',
      actorId: erin.customerId,
      ...inEco,
      ip: null,
      userAgent: null,
      requestId: null,
    })
  })
})

describe('secrets', () => {
  test('no stored audit event holds a secret or configuration value these tests planted', async () => {
    const token = await h.call('POST', '/auth/tokens', { token: admin.token, body: { name: 'ci' } })
    await h.call('PUT', '/site/services/llm', {
      ...as(40, { token: token.body.token }),
      body: { kind: 'openai', enabled: true, config: { apiKey: 'sk-audit-s3cret-key', baseUrl: 'https://llm.example.test/v1' } },
    })
    await h.call('PUT', '/site/services/sms', {
      ...as(41),
      body: { kind: 'twilio', enabled: true, config: { accountSid: `AC${'c3'.repeat(16)}`, authToken: 'twilio-audit-s3cret-token', from: '+15550100002' } },
    })
    expect((await stored(h, 'site.service.created')).map((e) => e.targetId)).toEqual(expect.arrayContaining(['llm', 'sms']))
    planted.push(
      token.body.token,
      'sk-audit-s3cret-key',
      'llm.example.test',
      'twilio-audit-s3cret-token',
      `AC${'c3'.repeat(16)}`,
      '+15550100002',
      admin.password,
      admin.token,
      owner.token,
    )
    await expectNoneStored(h, planted)
  })
})
