import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'
import { describeRoute, ecosystemScopedRoutes, organizationScopedRoutes, type VictimFixture } from './routes'

let h: Harness
let ownerA: RegisteredUser
let memberA: RegisteredUser
let customerA: { token: string; customerId: string }
let a: Provisioned
let b: VictimFixture
let bSecrets: string[]

beforeAll(async () => {
  // The route list creates a persona service from the ollama template (localhost): allowed here, so
  // that A acting in its own ecosystem succeeds and only the cross-tenant refusals are in question.
  h = await createHarness({ PERSONA_SERVICE_PRIVATE_ADDRESSES: 'allow' })
  ownerA = await h.register()
  memberA = await h.register()
  const ownerB = await h.register()
  const adminB = await h.register()
  a = await provision(h, ownerA)
  await addMember(h, a, ownerA, memberA, 'admin')
  customerA = await customerOf(h, a, ownerA)
  const orgB = await provision(h, ownerB)
  const memberB = await addMember(h, orgB, ownerB, adminB, 'admin')
  const customerB = await customerOf(h, orgB, ownerB, 'b-secret-external-id')
  const attachmentB = await uploadAs(customerB.token, 'b-secret-file.txt', 'b secret bytes')
  await h.call('PUT', `/usage/storage/quotas/${customerB.customerId}`, { ...orgB.as(ownerB), body: { quotaBytes: 12345678901 } })
  const asB = orgB.as(ownerB)
  const serviceB = await h.call('POST', '/persona/services', { ...asB, body: { baseUrl: 'https://b-secret-llm.example/v1', apiKey: 'sk-b-secret-key' } })
  const personaBody = { slug: 'b-secret-persona', name: 'b-secret-persona', modelPrompt: 'b-secret-prompt', serviceId: serviceB.body.id }
  const personaB: string = (await h.call('POST', '/persona/personas', { ...asB, body: personaBody })).body.id
  const conversationB = await h.call('POST', '/chat/conversations', { token: customerB.token, body: { title: 'b-secret-title', model: 'dev' } })
  const turnB = await h.call('POST', `/chat/conversations/${conversationB.body.id}/messages`, { token: customerB.token, body: { message: 'b-secret-message' } })
  const messageB: string = JSON.parse(/^event: open\ndata: (.*)$/m.exec(turnB.body)![1]!).userMessageId
  const memory = (scope: string) => ({
    personaId: personaB,
    scope,
    slug: `b-${scope}`,
    memoryType: 'user',
    description: 'b-secret-memory',
    body: `b-secret-memory ${scope}`,
  })
  const memoryB = await h.call('POST', '/persona_memory/memories', { token: customerB.token, body: memory('user') })
  const globalB = await h.call('POST', '/persona_memory/memories', { ...orgB.as(ownerB), body: memory('persona') })
  await h.call('PATCH', `/customer/customers/${customerB.customerId}`, { ...asB, body: { email: 'b-secret-mailbox@example.test' } })
  const templateB = await h.call('POST', '/messaging/templates', {
    ...asB,
    body: { name: 'b-secret-template', subject: 'b-secret-subject', htmlBody: 'h', textBody: 't', category: 'account' },
  })
  await h.call('POST', '/messaging/email', { ...asB, body: { customerId: customerB.customerId, templateId: templateB.body.id } })
  const notificationB = await h.db.transaction((tx) =>
    h.app.services.notifications.notify(tx, {
      ecosystemId: orgB.ecosystem.id,
      customerId: customerB.customerId,
      type: 'community_reply',
      subject: 'b-secret-notification',
      body: 'b',
    }),
  )
  const badgeB = await h.call('POST', '/community/badges', { ...asB, body: { name: 'b-secret-badge', criteriaType: 'points_total', criteriaThreshold: 1 } })
  const threadB = await h.call('POST', '/community/threads', { token: customerB.token, body: { title: 'b-secret-thread', body: 'b' } })
  const replyB = await h.call('POST', '/community/replies', { token: customerB.token, body: { threadId: threadB.body.id, body: 'b-secret-reply' } })
  const webhookB = await h.call('POST', '/integrations/webhooks', {
    ...asB,
    body: { url: 'https://b-secret-hook.example/in', events: ['customer.created'], description: 'b-secret-webhook' },
  })
  const deliveryB = await h.call('POST', `/integrations/webhooks/${webhookB.body.id}/test`, asB)
  const siteB = await h.call('POST', '/monitored_sites/sites', {
    ...asB,
    body: { name: 'b-secret-site', url: 'https://b-secret-site.example/', intervalMinutes: 60 },
  })
  const [feedB] = await queryRows<{ id: string }>(h.db, sql`select id from site.feed_items where customer_id = ${customerB.customerId}`)
  b = {
    org: orgB,
    customerId: customerB.customerId,
    memberId: memberB.id,
    attachmentId: attachmentB.id,
    personaId: personaB,
    memoryId: memoryB.body.id,
    globalMemoryId: globalB.body.id,
    serviceId: serviceB.body.id,
    conversationId: conversationB.body.id,
    messageId: messageB,
    templateId: templateB.body.id,
    notificationId: notificationB,
    threadId: threadB.body.id,
    replyId: replyB.body.id,
    badgeId: badgeB.body.id,
    feedItemId: feedB!.id,
    webhookId: webhookB.body.id,
    siteId: siteB.body.id,
    deliveryId: deliveryB.body.id,
  }
  bSecrets = [
    customerB.customerId,
    'b-secret-external-id',
    adminB.email,
    memberB.id,
    attachmentB.id,
    'b-secret-file.txt',
    attachmentB.contentHash,
    '12345678901',
  ]
  bSecrets.push(personaB, memoryB.body.id, globalB.body.id, 'b-secret-memory')
  bSecrets.push(feedB!.id, 'b-secret-badge')
  bSecrets.push(siteB.body.id, 'b-secret-site')
  bSecrets.push(webhookB.body.id, 'b-secret-hook', 'b-secret-webhook', webhookB.body.secret, deliveryB.body.id)
  bSecrets.push(threadB.body.id, 'b-secret-thread', replyB.body.id, 'b-secret-reply', badgeB.body.id, 'b-secret-badge')
  bSecrets.push(templateB.body.id, 'b-secret-template', 'b-secret-subject', 'b-secret-mailbox', notificationB, 'b-secret-notification')
  bSecrets.push(
    serviceB.body.id,
    'b-secret-llm',
    'sk-b-secret-key',
    'b-secret-persona',
    'b-secret-prompt',
    conversationB.body.id,
    'b-secret-title',
    'b-secret-message',
    messageB,
  )
})
afterAll(() => h.close())

/** A ready attachment (local store: the PUT goes to the app itself). */
async function uploadAs(token: string, filename: string, text: string) {
  const bytes = new TextEncoder().encode(text)
  const contentHash = new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
  const p = await h.call('POST', '/storage/uploads', { token, body: { filename, contentType: 'text/plain', sizeBytes: bytes.byteLength, contentHash } })
  const put = await h.app.handle(new Request(p.body.uploadUrl, { method: 'PUT', headers: p.body.uploadHeaders, body: bytes }))
  const done = await h.call('POST', `/storage/attachments/${p.body.attachment.id}/complete`, { token })
  if (put.status !== 200 || done.status !== 200) throw new Error(`upload failed: ${put.status} ${done.status}`)
  return done.body.attachment as { id: string; contentHash: string }
}

function expectRefused(res: { status: number; body: unknown }, where: string) {
  expect([403, 404], where).toContain(res.status)
  const text = JSON.stringify(res.body)
  for (const secret of bSecrets) expect(text.includes(secret), `${where} leaks ${secret}`).toBe(false)
}

describe('cross-tenant: ecosystem-scoped routes of B refuse credentials of A', () => {
  for (const route of ecosystemScopedRoutes) {
    test(describeRoute(route), async () => {
      const r = route(b)
      const toB = { 'x-ecosystem-id': b.org.ecosystem.id }
      const toA = { 'x-ecosystem-id': a.ecosystem.id }
      const attempts = [
        ['owner of A naming B', { token: ownerA.token, headers: toB }],
        ['admin of A naming B by rdid', { token: memberA.token, headers: { 'x-ecosystem-id': b.org.ecosystem.rdid } }],
        ['customer of A naming B', { token: customerA.token, headers: toB }],
        ['customer of A in its own ecosystem', { token: customerA.token }],
        ['owner of A in its own ecosystem', { token: ownerA.token, headers: toA }],
      ] as const
      for (const [who, creds] of attempts) {
        const res = await h.call(r.method, r.path, { ...creds, body: r.body })
        if ((who === 'owner of A in its own ecosystem' || who === 'customer of A in its own ecosystem') && res.status < 300) {
          // Acting in A (creating, listing its own) is allowed; it must never touch or reveal B.
          const text = JSON.stringify(res.body)
          for (const secret of bSecrets) expect(text.includes(secret), `${who}: ${r.method} ${r.path} leaks ${secret}`).toBe(false)
          continue
        }
        expectRefused(res, `${who}: ${r.method} ${r.path}`)
      }
    })
  }

  test("B's customer and data are untouched afterwards", async () => {
    const [customer] = await queryRows<{ name: string | null }>(h.db, sql`select name from customer.customers where id = ${b.customerId}`)
    expect(customer).toEqual({ name: null })
    const [ecosystem] = await queryRows<{ name: string }>(h.db, sql`select name from registry.ecosystems where id = ${b.org.ecosystem.id}`)
    expect(ecosystem!.name).not.toBe('pwned')
    const [attachment] = await queryRows<{ filename: string; deleted_at: string | null; status: string }>(
      h.db,
      sql`select filename, deleted_at, status from storage.attachments where id = ${b.attachmentId}`,
    )
    expect(attachment).toEqual({ filename: 'b-secret-file.txt', deleted_at: null, status: 'ready' })
    const [quota] = await queryRows<{ quota_bytes: string | number }>(h.db, sql`select quota_bytes from storage.quotas where customer_id = ${b.customerId}`)
    expect(Number(quota!.quota_bytes)).toBe(12345678901)
    const memories = await queryRows<{ body: string; status: string; deleted_at: string | null }>(
      h.db,
      sql`select body, status, deleted_at from persona_memory.memories where persona_id = ${b.personaId} order by scope`,
    )
    expect(memories).toEqual([
      { body: 'b-secret-memory persona', status: 'active', deleted_at: null },
      { body: 'b-secret-memory user', status: 'active', deleted_at: null },
    ])
    const [persona] = await queryRows<{ name: string; service_id: string }>(h.db, sql`select name, service_id from persona.personas where id = ${b.personaId}`)
    expect(persona).toEqual({ name: 'b-secret-persona', service_id: b.serviceId })
    const [service] = await queryRows<{ name: string }>(h.db, sql`select name from persona.services where id = ${b.serviceId}`)
    expect(service!.name).not.toBe('pwned')
    const [conversation] = await queryRows<{ title: string }>(h.db, sql`select title from chat.conversations where id = ${b.conversationId}`)
    expect(conversation).toEqual({ title: 'b-secret-title' })
    const chat = await queryRows<{ role: string; content: string }>(
      h.db,
      sql`select role, content from chat.messages where conversation_id = ${b.conversationId} order by seq`,
    )
    expect(chat.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(chat[0]!.content).toBe('b-secret-message')
    const [template] = await queryRows<{ name: string }>(h.db, sql`select name from messaging.templates where id = ${b.templateId}`)
    expect(template).toEqual({ name: 'b-secret-template' })
    const [notification] = await queryRows<{ is_read: boolean }>(h.db, sql`select is_read from notifications.notifications where id = ${b.notificationId}`)
    expect(notification).toEqual({ is_read: false })
    const [thread] = await queryRows<{ title: string; deleted_at: string | null }>(
      h.db,
      sql`select title, deleted_at from community.threads where id = ${b.threadId}`,
    )
    expect(thread).toEqual({ title: 'b-secret-thread', deleted_at: null })
    const [reply] = await queryRows<{ body: string; deleted_at: string | null }>(
      h.db,
      sql`select body, deleted_at from community.replies where id = ${b.replyId}`,
    )
    expect(reply).toEqual({ body: 'b-secret-reply', deleted_at: null })
    const [feedItem] = await queryRows<{ is_read: boolean }>(h.db, sql`select is_read from site.feed_items where id = ${b.feedItemId}`)
    expect(feedItem).toEqual({ is_read: false })
    const [badge] = await queryRows<{ name: string }>(h.db, sql`select name from community.badges where id = ${b.badgeId}`)
    expect(badge).toEqual({ name: 'b-secret-badge' })
    expect(await queryRows(h.db, sql`select 1 from community.points where customer_id = ${b.customerId} and source_type = 'probe'`)).toEqual([])
    const probes = await queryRows<{ n: number }>(
      h.db,
      sql`select count(*)::int as n from messaging.log where customer_id = ${b.customerId} and body = 'pwned'`,
    )
    expect(probes).toEqual([{ n: 0 }])
    const [webhook] = await queryRows<{ url: string; secret_sealed: string }>(
      h.db,
      sql`select url, previous_secret_sealed as secret_sealed from integrations.webhooks where id = ${b.webhookId}`,
    )
    expect(await queryRows(h.db, sql`select language from search.settings where ecosystem_id = ${b.org.ecosystem.id}`)).toEqual([])
    const [site] = await queryRows<{ name: string; checks: number }>(
      h.db,
      sql`select name, (select count(*)::int from monitored_sites.checks where site_id = ${b.siteId}) as checks from monitored_sites.sites where id = ${b.siteId}`,
    )
    expect(site).toEqual({ name: 'b-secret-site', checks: 0 })
    expect(webhook).toEqual({ url: 'https://b-secret-hook.example/in', secret_sealed: null as never })
  })
})

describe('cross-tenant: organization routes of B refuse members of A', () => {
  for (const route of organizationScopedRoutes) {
    test(describeRoute(route), async () => {
      const r = route(b)
      for (const token of [ownerA.token, memberA.token]) expectRefused(await h.call(r.method, r.path, { token, body: r.body }), `${r.method} ${r.path}`)
      const asCustomer = await h.call(r.method, r.path, { token: customerA.token, body: r.body })
      expect([401, 403, 404]).toContain(asCustomer.status)
    })
  }
})
