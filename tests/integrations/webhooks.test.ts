import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { Webhook as Verifier } from 'standardwebhooks'
import { MAX_ATTEMPTS } from '../../src/modules/integrations/service'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { startReceiver } from '../support/receiver'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'
import { rejection, until } from '../support/wait'
import { customerDeleted } from '../../src/modules/customer/events'

const receiver = startReceiver({ slowMs: 2500 })
let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness({
    WEBHOOK_PRIVATE_ADDRESSES: 'allow',
    WEBHOOK_TIMEOUT_SECONDS: '1',
    WEBHOOK_RETRY_SECONDS: '1',
    SITE_SERVICE_PRIVATE_ADDRESSES: 'allow',
  })
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(async () => {
  await h.close()
  receiver.close()
})

let paths = 0
/** An endpoint at a fresh path of the receiver, subscribed to `events`. */
async function endpoint(events: string[], answers: Parameters<typeof receiver.plan.set>[1] = []) {
  const path = `/hook${++paths}`
  receiver.plan.set(path, answers)
  const res = await h.call('POST', '/integrations/webhooks', { ...org.as(owner), body: { url: `${receiver.url}${path}`, events } })
  expect(res.status).toBe(201)
  return { ...(res.body as { id: string; secret: string }), path }
}
const deliveries = async (id: string) => (await h.call('GET', `/integrations/webhooks/${id}/deliveries`, org.as(owner))).body
const eventsAt = (path: string) => receiver.to(path).map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })

describe('outbound webhooks', () => {
  test('an endpoint is created with its secret shown once; only https, or http to a private address when allowed; known events only; admins only', async () => {
    const created = await h.call('POST', '/integrations/webhooks', {
      ...org.as(owner),
      body: { url: 'https://hooks.example.test/in', events: ['customer.created', 'customer.created'], description: 'CRM' },
    })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.test/in',
      events: ['customer.created'],
      enabled: true,
      description: 'CRM',
      disabledReason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    const read = await h.call('GET', `/integrations/webhooks/${created.body.id}`, org.as(owner))
    expect(read.body.secret).toBeUndefined()
    const list = await h.call('GET', '/integrations/webhooks', org.as(owner))
    expect(list.body).toMatchObject({ page: 1, pageSize: 20, total: expect.any(Number) })
    expect(list.body.items.map((w: { id: string }) => w.id)).toContain(created.body.id)
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret)
    const [stored] = await queryRows<{ secret_sealed: string }>(h.db, sql`select secret_sealed from integrations.webhooks where id = ${created.body.id}`)
    expect(stored!.secret_sealed).not.toContain(created.body.secret.slice(6))

    const refused = async (body: Record<string, unknown>) =>
      (await h.call('POST', '/integrations/webhooks', { ...org.as(owner), body: { events: ['customer.created'], ...body } })).body
    expect((await refused({ url: 'http://hooks.example.test/in' })).error.code).toBe('validation_failed')
    expect((await refused({ url: 'ftp://127.0.0.1/in' })).error.code).toBe('validation_failed')
    expect((await refused({ url: 'https://x.example', events: ['customer.exploded'] })).error.message).toContain('customer.exploded is not an event')
    expect((await refused({ url: 'https://x.example', events: ['webhook.test'] })).error.message).toContain('webhook.test is not an event')
    const catalogue = await h.call('GET', '/integrations/events', org.as(owner))
    expect(catalogue.body.items.map((e: { type: string }) => e.type)).toContain('monitored_site.down')

    const member = await h.register()
    await addMember(h, org, owner, member, 'member')
    expect((await h.call('GET', '/integrations/webhooks', org.as(member))).status).toBe(403)
    const customer = await customerOf(h, org, owner)
    expect((await h.call('GET', '/integrations/webhooks', { token: customer.token })).status).toBe(403)
  })

  test('events of the areas arrive signed per Standard Webhooks, verified by an independent implementation', async () => {
    const hook = await endpoint([
      'customer.created',
      'customer.deleted',
      'community.thread.created',
      'community.reply.created',
      'messaging.sent',
      'chat.message.completed',
    ])
    const customer = await customerOf(h, org, owner, 'ext-webhook-1')
    await h.call('PATCH', `/customer/customers/${customer.customerId}`, { ...org.as(owner), body: { email: 'hooked@example.test' } })
    const thread = await h.call('POST', '/community/threads', { token: customer.token, body: { title: 'Hooks', body: 'b' } })
    const reply = await h.call('POST', '/community/replies', { token: customer.token, body: { threadId: thread.body.id, body: 'r' } })
    const sent = await h.call('POST', '/messaging/email', { ...org.as(owner), body: { customerId: customer.customerId, subject: 'Hi', text: 'there' } })
    expect(sent.body.status).toBe('sent')
    const conversation = await h.call('POST', '/chat/conversations', { token: customer.token, body: { model: 'dev' } })
    await h.call('POST', `/chat/conversations/${conversation.body.id}/messages`, { token: customer.token, body: { message: 'hello' } })
    expect((await h.call('DELETE', `/customer/customers/${customer.customerId}`, org.as(owner))).status).toBe(204)

    await until(() => receiver.to(hook.path).length >= 6)
    const verifier = new Verifier(hook.secret)
    for (const r of receiver.to(hook.path)) {
      expect(verifier.verify(r.body, r.headers)).toBeTruthy()
      expect(r.headers['content-type']).toBe('application/json')
    }
    expect(() =>
      new Verifier(`whsec_${Buffer.from('another secret!!').toString('base64')}`).verify(receiver.to(hook.path)[0]!.body, receiver.to(hook.path)[0]!.headers),
    ).toThrow()
    const byType = new Map(eventsAt(hook.path).map((e) => [e.type, e.data]))
    expect(byType.get('customer.created')).toMatchObject({ id: customer.customerId, externalId: 'ext-webhook-1' })
    expect(byType.get('community.thread.created')).toMatchObject({ id: thread.body.id, title: 'Hooks', customerId: customer.customerId })
    expect(byType.get('community.reply.created')).toMatchObject({ id: reply.body.id, threadId: thread.body.id })
    expect(byType.get('messaging.sent')).toMatchObject({ customerId: customer.customerId, channel: 'email', templateId: null })
    expect(byType.get('chat.message.completed')).toMatchObject({ conversationId: conversation.body.id, status: 'complete' })
    expect(byType.get('customer.deleted')).toEqual({ id: customer.customerId })

    // The receiver answers before the delivery records its outcome: wait for the records, as a person would.
    await until(async () => (await deliveries(hook.id)).items.every((d: { status: string }) => d.status === 'succeeded'))
    const page = await deliveries(hook.id)
    expect(page.total).toBe(6)
    expect(page.items[0]).toEqual({
      id: expect.any(String),
      webhookId: hook.id,
      eventType: expect.any(String),
      status: 'succeeded',
      attempts: 1,
      responseCode: 200,
      latencyMs: expect.any(Number),
      lastError: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    const ids = receiver.to(hook.path).map((r) => r.headers['webhook-id'])
    expect(new Set(ids)).toEqual(new Set(page.items.map((d: { id: string }) => d.id)))
  }, 20_000)

  test('an upload that becomes ready and a send the provider refuses are events too', async () => {
    const admin = await h.register()
    const shop = await provision(h, admin)
    const path = `/hook${++paths}`
    const hook = await h.call('POST', '/integrations/webhooks', {
      ...shop.as(admin),
      body: { url: `${receiver.url}${path}`, events: ['storage.attachment.ready', 'messaging.failed'] },
    })
    const customer = await customerOf(h, shop, admin)
    const bytes = new TextEncoder().encode('hello hooks')
    const contentHash = new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
    const upload = await h.call('POST', '/storage/uploads', {
      token: customer.token,
      body: { filename: 'hooks.txt', contentType: 'text/plain', sizeBytes: bytes.byteLength, contentHash },
    })
    await h.app.handle(new Request(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.uploadHeaders, body: bytes }))
    expect((await h.call('POST', `/storage/attachments/${upload.body.attachment.id}/complete`, { token: customer.token })).status).toBe(200)

    await h.call('PATCH', `/customer/customers/${customer.customerId}`, { ...shop.as(admin), body: { email: 'nobody@example.test' } })
    await h.call('PUT', '/site/services/mail', {
      ...shop.as(admin),
      body: { kind: 'smtp', enabled: true, config: { host: '127.0.0.1', port: 9, from: 'Shop <shop@example.test>' } },
    })
    const sent = await h.call('POST', '/messaging/email', { ...shop.as(admin), body: { customerId: customer.customerId, subject: 'Hi', text: 'there' } })
    expect(sent.body.status).toBe('failed')

    await until(() => receiver.to(path).length >= 2)
    const byType = new Map(eventsAt(path).map((e) => [e.type, e.data]))
    expect(byType.get('storage.attachment.ready')).toEqual({
      id: upload.body.attachment.id,
      customerId: customer.customerId,
      filename: 'hooks.txt',
      contentType: 'text/plain',
      sizeBytes: bytes.byteLength,
    })
    expect(byType.get('messaging.failed')).toMatchObject({ customerId: customer.customerId, channel: 'email', error: expect.any(String) })
    expect((await h.call('GET', `/integrations/webhooks/${hook.body.id}/deliveries`, shop.as(admin))).body.total).toBe(2)
  }, 20_000)

  test('an event of a change that rolled back is never sent; one of another ecosystem or not subscribed neither', async () => {
    // customer.customer.deleted is audited: its emit names who acted.
    const TEST_ACTOR = { actor: { type: 'system' as const, id: 'test' } }
    const hook = await endpoint(['customer.deleted'])
    await rejection(
      h.db.transaction(async (tx) => {
        await h.app.bus.emit(tx, customerDeleted, org.ecosystem.id, { id: 'rolled-back' }, TEST_ACTOR)
        throw new Error('the change failed')
      }),
      'the change failed',
    )
    await customerOf(h, org, owner)
    const stranger = await h.register()
    const elsewhere = await provision(h, stranger)
    await h.db.transaction((tx) => h.app.bus.emit(tx, customerDeleted, elsewhere.ecosystem.id, { id: 'elsewhere' }, TEST_ACTOR))
    await h.db.transaction((tx) => h.app.bus.emit(tx, customerDeleted, org.ecosystem.id, { id: 'committed' }, TEST_ACTOR))
    await until(() => receiver.to(hook.path).length >= 1)
    await Bun.sleep(1000)
    expect(eventsAt(hook.path).map((e) => e.data.id)).toEqual(['committed'])
  })

  test('a receiver that fails is retried with backoff under the same webhook-id until it succeeds', async () => {
    const hook = await endpoint([], ['fail', 'fail'])
    const queued = await h.call('POST', `/integrations/webhooks/${hook.id}/test`, org.as(owner))
    expect(queued.body).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 })
    await until(async () => (await deliveries(hook.id)).items[0].status === 'succeeded', 20_000)
    const attempts = receiver.to(hook.path)
    expect(attempts.length).toBe(3)
    expect(new Set(attempts.map((a) => a.headers['webhook-id']))).toEqual(new Set([queued.body.id]))
    // 1 s, then 2 s: each wait at least as long as the one before (the queue adds no less than the delay).
    const gaps = [attempts[1]!.at - attempts[0]!.at, attempts[2]!.at - attempts[1]!.at]
    expect(gaps[0]).toBeGreaterThanOrEqual(900)
    expect(gaps[1]).toBeGreaterThanOrEqual(1800)
    expect((await deliveries(hook.id)).items[0]).toMatchObject({ status: 'succeeded', attempts: 3, responseCode: 200, lastError: null })
    // Every attempt is kept, with the start of what the receiver answered.
    const detail = (await h.call('GET', `/integrations/webhooks/${hook.id}/deliveries/${queued.body.id}`, org.as(owner))).body
    expect(JSON.parse(detail.payload)).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id } })
    expect(detail.history.map((a: { responseCode: number; error: string | null; responseBody: string }) => [a.responseCode, a.error, a.responseBody])).toEqual([
      [500, 'answered 500', 'broken'],
      [500, 'answered 500', 'broken'],
      [200, null, '<html>fine</html>'],
    ])
    expect(detail.history.every((a: { durationMs: number }) => a.durationMs >= 0)).toBe(true)
    expect((await h.call('GET', `/integrations/webhooks/${hook.id}/deliveries/${crypto.randomUUID()}`, org.as(owner))).status).toBe(404)
  }, 30_000)

  test('no answer in time, a redirect, a refused connection: each attempt fails with its reason', async () => {
    const slow = await endpoint([], ['slow', 'slow', 'slow', 'slow'])
    await h.call('POST', `/integrations/webhooks/${slow.id}/test`, org.as(owner))
    await until(async () => (await deliveries(slow.id)).items[0].attempts >= 1)
    expect((await deliveries(slow.id)).items[0]).toMatchObject({ status: 'pending', responseCode: null, lastError: 'no answer within 1 s' })

    const moved = await endpoint([], ['redirect', 'redirect', 'redirect', 'redirect'])
    await h.call('POST', `/integrations/webhooks/${moved.id}/test`, org.as(owner))
    await until(async () => (await deliveries(moved.id)).items[0].attempts >= 1)
    expect((await deliveries(moved.id)).items[0].lastError).toContain('Refused to follow the redirect (302)')
    expect(receiver.to('/elsewhere')).toEqual([])

    const closed = await h.call('POST', '/integrations/webhooks', { ...org.as(owner), body: { url: 'http://127.0.0.1:9/nobody', events: [] } })
    await h.call('POST', `/integrations/webhooks/${closed.body.id}/test`, org.as(owner))
    await until(async () => (await deliveries(closed.body.id)).items[0].attempts >= 1)
    expect((await deliveries(closed.body.id)).items[0].lastError).toStartWith('could not connect')
  }, 30_000)

  test('with private addresses denied, a loopback endpoint is refused at creation (http or https) and, stored before, at delivery', async () => {
    const strict = await createHarness()
    try {
      const admin = await strict.register()
      const tenant = await provision(strict, admin)
      const http = await strict.call('POST', '/integrations/webhooks', {
        ...tenant.as(admin),
        body: { url: `${receiver.url}/private`, events: ['customer.created'] },
      })
      expect(http.status).toBe(400)
      const refused = await strict.call('POST', '/integrations/webhooks', {
        ...tenant.as(admin),
        body: { url: 'https://127.0.0.1:9/private', events: ['customer.created'] },
      })
      expect(refused.status).toBe(400)
      expect(refused.body.error).toEqual({ code: 'validation_failed', message: expect.stringMatching(/^url: 127\.0\.0\.1 is a private address/) })
      // A row saved before the check existed (or a name that moved since) is refused at delivery.
      const https = await strict.call('POST', '/integrations/webhooks', {
        ...tenant.as(admin),
        body: { url: 'https://hooks.example.test/private', events: ['customer.created'] },
      })
      expect(https.status).toBe(201)
      await strict.db.execute(sql`update integrations.webhooks set url = 'https://127.0.0.1:9/private' where id = ${https.body.id}`)
      await strict.call('POST', `/integrations/webhooks/${https.body.id}/test`, tenant.as(admin))
      await until(async () => (await strict.call('GET', `/integrations/webhooks/${https.body.id}/deliveries`, tenant.as(admin))).body.items[0].attempts >= 1)
      const [delivery] = (await strict.call('GET', `/integrations/webhooks/${https.body.id}/deliveries`, tenant.as(admin))).body.items
      expect(delivery.lastError).toMatch(/not allowed|private|loopback/i)
    } finally {
      await strict.close()
    }
  }, 30_000)

  test('a rotated secret signs beside the old one for 24 h, then alone', async () => {
    const hook = await endpoint([])
    const rotated = await h.call('POST', `/integrations/webhooks/${hook.id}/rotate-secret`, org.as(owner))
    expect(rotated.body.secret).toMatch(/^whsec_/)
    expect(rotated.body.secret).not.toBe(hook.secret)
    await h.call('POST', `/integrations/webhooks/${hook.id}/test`, org.as(owner))
    await until(() => receiver.to(hook.path).length >= 1)
    const during = receiver.to(hook.path)[0]!
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2)
    expect(new Verifier(rotated.body.secret).verify(during.body, during.headers)).toBeTruthy()
    expect(new Verifier(hook.secret).verify(during.body, during.headers)).toBeTruthy()

    await h.db.execute(sql`update integrations.webhooks set previous_expires_at = now() - interval '1 minute' where id = ${hook.id}`)
    await h.call('POST', `/integrations/webhooks/${hook.id}/test`, org.as(owner))
    await until(() => receiver.to(hook.path).length >= 2)
    const after = receiver.to(hook.path)[1]!
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1)
    expect(new Verifier(rotated.body.secret).verify(after.body, after.headers)).toBeTruthy()
    expect(() => new Verifier(hook.secret).verify(after.body, after.headers)).toThrow()
  })

  test('the last attempt marks a delivery failed; retry sends it again; an endpoint failing for days is disabled and its admins told', async () => {
    const hook = await endpoint(['customer.deleted'], ['fail', 'fail', 'fail'])
    const queued = (await h.call('POST', `/integrations/webhooks/${hook.id}/test`, org.as(owner))).body
    await until(async () => (await deliveries(hook.id)).items[0].attempts >= 1)
    // Skip the day of retries: this is the last attempt.
    await h.db.execute(sql`update integrations.deliveries set attempts = ${MAX_ATTEMPTS - 1} where id = ${queued.id}`)
    await h.app.services.integrations.deliver(queued.id)
    expect((await deliveries(hook.id)).items[0]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, responseCode: 500, lastError: 'answered 500' })

    receiver.plan.set(hook.path, [])
    const retried = await h.call('POST', `/integrations/webhooks/${hook.id}/deliveries/${queued.id}/retry`, org.as(owner))
    expect(retried.body).toMatchObject({ status: 'pending', attempts: 0 })
    await until(async () => (await deliveries(hook.id)).items[0].status === 'succeeded')
    expect((await h.call('POST', `/integrations/webhooks/${hook.id}/deliveries/${crypto.randomUUID()}/retry`, org.as(owner))).status).toBe(404)
    // The retry added its attempt to the history; the failed round is still there.
    const history = (await h.call('GET', `/integrations/webhooks/${hook.id}/deliveries/${queued.id}`, org.as(owner))).body.history
    const codes = history.map((a: { responseCode: number }) => a.responseCode)
    expect(codes.length).toBeGreaterThanOrEqual(3)
    expect(codes).toEqual([...codes.slice(0, -1).map(() => 500), 200])

    receiver.plan.set(hook.path, ['fail', 'fail', 'fail'])
    const again = (await h.call('POST', `/integrations/webhooks/${hook.id}/test`, org.as(owner))).body
    await until(async () => (await deliveries(hook.id)).items[0].attempts >= 1)
    await h.db.execute(sql`update integrations.webhooks set failing_since = now() - interval '4 days' where id = ${hook.id}`)
    await h.db.execute(sql`update integrations.deliveries set attempts = ${MAX_ATTEMPTS - 1} where id = ${again.id}`)
    await h.app.services.integrations.deliver(again.id)
    const disabled = (await h.call('GET', `/integrations/webhooks/${hook.id}`, org.as(owner))).body
    expect(disabled.enabled).toBe(false)
    expect(disabled.disabledReason).toContain('every delivery failed since')
    const feed = (await h.call('GET', '/site/feed?source=integrations', org.as(owner))).body
    expect(feed.items[0]).toMatchObject({ entityType: 'webhook', entityId: hook.id, action: 'disabled' })
    const notes = (await h.call('GET', '/notifications', org.as(owner))).body
    expect(notes.items[0]).toMatchObject({ type: 'account', subject: expect.stringContaining('turned off') })
    // The audit log names the job that turned it off.
    const audit = (await h.call('GET', `/audit/events?action=integrations.webhook.disabled&targetId=${hook.id}`, org.as(owner))).body
    expect(audit.items).toMatchObject([
      {
        actor: { type: 'system', id: 'webhook-deliver' },
        ecosystemId: org.ecosystem.id,
        target: { type: 'webhook', id: hook.id },
        metadata: { enabled: false },
      },
    ])

    const customer = await customerOf(h, org, owner)
    await h.call('DELETE', `/customer/customers/${customer.customerId}`, org.as(owner))
    await Bun.sleep(800)
    expect((await deliveries(hook.id)).total).toBe(2)
    // ?status= narrows the list; a status that is none of the three is refused, naming them.
    const byStatus = async (status: string) => (await h.call('GET', `/integrations/webhooks/${hook.id}/deliveries?status=${status}`, org.as(owner))).body
    expect((await byStatus('succeeded')).items.map((d: { id: string }) => d.id)).toEqual([queued.id])
    expect((await byStatus('failed')).items.map((d: { id: string }) => d.id)).toEqual([again.id])
    expect((await byStatus('pending')).total).toBe(0)
    expect((await byStatus('lost')).error.message).toBe('query.status: must be one of "pending", "succeeded", "failed"')
    const enabled = await h.call('PATCH', `/integrations/webhooks/${hook.id}`, { ...org.as(owner), body: { enabled: true, events: ['customer.deleted'] } })
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, events: ['customer.deleted'] })
    expect((await h.call('DELETE', `/integrations/webhooks/${hook.id}`, org.as(owner))).status).toBe(204)
    expect((await h.call('GET', `/integrations/webhooks/${hook.id}`, org.as(owner))).status).toBe(404)
  }, 30_000)
})
