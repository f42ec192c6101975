import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h.close())

const admin = () => org.as(owner)
const hash = (n: number) => n.toString(16).padStart(64, '0')
const presign = (token: string, sizeBytes: number, n = sizeBytes) =>
  h.call('POST', '/storage/uploads', { token, body: { filename: `f${n}.bin`, contentType: 'application/octet-stream', sizeBytes, contentHash: hash(n) } })
async function chatSend(token: string, conversationId: string, message: string) {
  const res = await h.app.handle(
    new Request(`http://localhost/chat/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    }),
  )
  const text = await res.text()
  return { status: res.status, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text }
}

describe('billing: features and plans', () => {
  test('features: the two built in come first and cannot be changed; custom ones are created, renamed and deleted unless a plan grants them', async () => {
    const page = (await h.call('GET', '/billing/features', admin())).body
    expect(page.items.slice(0, 2)).toEqual([
      { key: 'storage.bytes', name: 'Storage', type: 'limit', unit: 'bytes', reset: 'never', builtIn: true, allowNegative: false, stripeMeter: null },
      {
        key: 'chat.messages',
        name: 'Chat messages',
        type: 'metered',
        unit: 'messages',
        reset: 'month',
        builtIn: true,
        allowNegative: false,
        stripeMeter: null,
      },
    ])
    const created = await h.call('POST', '/billing/features', { ...admin(), body: { key: 'api.calls', name: 'API calls', type: 'metered', unit: 'calls' } })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      key: 'api.calls',
      name: 'API calls',
      type: 'metered',
      unit: 'calls',
      reset: 'month',
      builtIn: false,
      allowNegative: false,
      stripeMeter: null,
    })
    expect((await h.call('POST', '/billing/features', { ...admin(), body: { key: 'api.calls', name: 'again', type: 'boolean' } })).status).toBe(409)
    const builtIn = await h.call('POST', '/billing/features', { ...admin(), body: { key: 'storage.bytes', name: 'mine', type: 'limit' } })
    expect([builtIn.status, builtIn.body.error.code]).toEqual([409, 'builtin_feature'])
    expect((await h.call('PATCH', '/billing/features/chat.messages', { ...admin(), body: { name: 'x' } })).body.error.code).toBe('builtin_feature')
    expect((await h.call('PATCH', '/billing/features/api.calls', { ...admin(), body: { name: 'Calls' } })).body.name).toBe('Calls')
    expect((await h.call('GET', '/billing/features/nope', admin())).body.error.code).toBe('feature_not_found')

    await h.call('POST', '/billing/plans', { ...admin(), body: { key: 'uses-calls', name: 'Uses calls', entitlements: [{ feature: 'api.calls', limit: 10 }] } })
    const inUse = await h.call('DELETE', '/billing/features/api.calls', admin())
    expect([inUse.status, inUse.body.error.code]).toEqual([409, 'in_use'])
    expect((await h.call('DELETE', '/billing/plans/uses-calls', admin())).status).toBe(204)
    expect((await h.call('DELETE', '/billing/features/api.calls', admin())).status).toBe(204)
    const customer = await customerOf(h, org, owner)
    expect((await h.call('GET', '/billing/features', { token: customer.token })).status).toBe(403)
  })

  test('plans: entitlements name known features once; one default at most; a plan someone is on, or the default, cannot be deleted', async () => {
    const bad = await h.call('POST', '/billing/plans', { ...admin(), body: { key: 'bad', name: 'Bad', entitlements: [{ feature: 'nothing' }] } })
    expect([bad.status, bad.body.error.code]).toEqual([400, 'feature_not_found'])
    const twice = await h.call('POST', '/billing/plans', {
      ...admin(),
      body: { key: 'bad', name: 'Bad', entitlements: [{ feature: 'chat.messages' }, { feature: 'chat.messages' }] },
    })
    expect(twice.status).toBe(400)
    const a = await h.call('POST', '/billing/plans', { ...admin(), body: { key: 'plan-a', name: 'A', isDefault: true } })
    expect(a.status).toBe(201)
    await h.call('POST', '/billing/plans', {
      ...admin(),
      body: { key: 'plan-b', name: 'B', isDefault: true, prices: [{ amount: 900, currency: 'usd', interval: 'month' }] },
    })
    const plans = (await h.call('GET', '/billing/plans', admin())).body.items as { key: string; isDefault: boolean }[]
    expect(plans.filter((p) => p.isDefault).map((p) => p.key)).toEqual(['plan-b'])
    const ada = await customerOf(h, org, owner)
    await h.call('PUT', `/billing/customers/${ada.customerId}/plan`, { ...admin(), body: { plan: 'plan-a' } })
    expect((await h.call('DELETE', '/billing/plans/plan-a', admin())).body.error.code).toBe('in_use')
    await h.call('DELETE', `/billing/customers/${ada.customerId}/plan`, admin())
    expect((await h.call('DELETE', '/billing/plans/plan-a', admin())).status).toBe(204)
    expect((await h.call('DELETE', '/billing/plans/plan-b', admin())).body.error.code).toBe('default_plan')
    await h.call('PATCH', '/billing/plans/plan-b', { ...admin(), body: { isDefault: false } })
    expect((await h.call('DELETE', '/billing/plans/plan-b', admin())).status).toBe(204)
    expect((await h.call('GET', '/billing/plans/plan-b', admin())).body.error.code).toBe('plan_not_found')
  })
})

describe('billing: currency', () => {
  test('prices are in the ecosystem’s currency: another is 400 on create and on change; the currency changes only while no plan prices in another', async () => {
    const eco = await provision(h, owner)
    const as = eco.as(owner)
    const price = (currency: string) => ({ amount: 900, currency, interval: 'month' })
    const eur = await h.call('POST', '/billing/plans', { ...as, body: { key: 'euro', name: 'Euro', prices: [price('usd'), price('eur')] } })
    expect([eur.status, eur.body.error.code, eur.body.error.message]).toEqual([
      400,
      'validation_failed',
      'prices.1.currency: the ecosystem bills in usd (its billing settings), not eur',
    ])
    expect((await h.call('GET', '/billing/plans/euro', as)).status).toBe(404)
    expect((await h.call('POST', '/billing/plans', { ...as, body: { key: 'std', name: 'Standard', prices: [price('usd')] } })).status).toBe(201)
    expect((await h.call('PATCH', '/billing/plans/std', { ...as, body: { prices: [price('gbp')] } })).status).toBe(400)
    expect((await h.call('PUT', '/billing/settings', { ...as, body: { provider: 'manual', currency: 'eur' } })).body.error.code).toBe('in_use')
    expect((await h.call('PATCH', '/billing/plans/std', { ...as, body: { prices: [] } })).status).toBe(200)
    expect((await h.call('PUT', '/billing/settings', { ...as, body: { provider: 'manual', currency: 'eur' } })).body.currency).toBe('eur')
    expect((await h.call('PATCH', '/billing/plans/std', { ...as, body: { prices: [price('eur')] } })).body.prices).toEqual([price('eur')])
    expect((await h.call('PATCH', '/billing/plans/std', { ...as, body: { prices: [price('usd')] } })).status).toBe(400)
  })
})

describe('billing: the manual provider', () => {
  test('the default plan applies to everyone; a manual assignment wins until removed; each change is an event in the customer’s feed', async () => {
    const eco = await provision(h, owner)
    const as = eco.as(owner)
    await h.call('POST', '/billing/features', { ...as, body: { key: 'exports', name: 'Exports', type: 'boolean' } })
    await h.call('POST', '/billing/plans', {
      ...as,
      body: { key: 'free', name: 'Free', isDefault: true, entitlements: [{ feature: 'chat.messages', limit: 100 }] },
    })
    await h.call('POST', '/billing/plans', {
      ...as,
      body: { key: 'pro', name: 'Pro', entitlements: [{ feature: 'exports' }, { feature: 'chat.messages', limit: 10_000 }] },
    })
    const hook = await h.call('POST', '/integrations/webhooks', {
      ...as,
      body: { url: 'https://hooks.example.test/billing', events: ['billing.entitlements.updated'] },
    })
    expect(hook.status).toBe(201)
    const ada = await customerOf(h, eco, owner)
    const me = (await h.call('GET', '/billing/me', { token: ada.token })).body
    expect(me).toMatchObject({ customerId: ada.customerId, plan: 'free', source: 'default', subscription: null })
    const byFeature = Object.fromEntries(me.entitlements.map((e: { feature: string }) => [e.feature, e]))
    expect(byFeature.exports).toEqual({
      feature: 'exports',
      type: 'boolean',
      enabled: false,
      limit: null,
      used: 0,
      remaining: null,
      resetsAt: null,
      reported: null,
    })
    expect(byFeature['storage.bytes']).toMatchObject({ enabled: true, limit: null })
    expect(byFeature['chat.messages']).toMatchObject({
      enabled: true,
      limit: 100,
      used: 0,
      remaining: 100,
      resetsAt: expect.stringMatching(/-01T00:00:00.000Z$/),
    })

    const assigned = await h.call('PUT', `/billing/customers/${ada.customerId}/plan`, { ...as, body: { plan: 'pro' } })
    expect(assigned.body).toMatchObject({ plan: 'pro', source: 'manual' })
    expect((await h.call('POST', '/billing/check', { token: ada.token, body: { feature: 'exports' } })).body).toEqual({
      allowed: true,
      limit: null,
      used: 0,
      remaining: null,
    })
    expect((await h.call('PUT', `/billing/customers/${ada.customerId}/plan`, { ...as, body: { plan: 'gold' } })).body.error.code).toBe('plan_not_found')
    const removed = await h.call('DELETE', `/billing/customers/${ada.customerId}/plan`, as)
    expect(removed.body).toMatchObject({ plan: 'free', source: 'default' })
    const feed = (await h.call('GET', '/site/feed?source=billing', { token: ada.token })).body.items.map((i: { summary: string }) => i.summary)
    expect(feed).toEqual(['Your plan is now free', 'Your plan is now pro'])
    // The same two changes were queued for the ecosystem's webhook, with the change's transaction.
    const queued = (await h.call('GET', `/integrations/webhooks/${hook.body.id}/deliveries`, as)).body
    expect(queued.total).toBe(2)
    // Another ecosystem's customer is not this admin's to look at through this ecosystem.
    const stranger = await customerOf(h, org, owner)
    expect((await h.call('GET', `/billing/customers/${stranger.customerId}`, as)).status).toBe(404)
    expect((await h.call('GET', `/billing/customers/${ada.customerId}`, { token: ada.token })).status).toBe(403)
  })

  test('enforced: uploads past storage.bytes and chat sends past chat.messages are 402 entitlement_exceeded naming feature, limit and use', async () => {
    const eco = await provision(h, owner)
    const as = eco.as(owner)
    await h.call('POST', '/billing/plans', {
      ...as,
      body: {
        key: 'tiny',
        name: 'Tiny',
        isDefault: true,
        entitlements: [
          { feature: 'storage.bytes', limit: 100 },
          { feature: 'chat.messages', limit: 2 },
        ],
      },
    })
    const ada = await customerOf(h, eco, owner)
    expect((await presign(ada.token, 60)).status).toBe(201)
    const refused = await presign(ada.token, 150)
    expect(refused.status).toBe(402)
    expect(refused.body.error.code).toBe('entitlement_exceeded')
    expect(refused.body.error.message).toBe('The plan allows 100 of storage.bytes; 0 used, 150 more requested')
    expect(refused.body).toMatchObject({ feature: 'storage.bytes', limit: 100, used: 0, requested: 150 })

    const { body: conversation } = await h.call('POST', '/chat/conversations', { token: ada.token, body: {} })
    expect((await chatSend(ada.token, conversation.id, 'one')).status).toBe(200)
    expect((await chatSend(ada.token, conversation.id, 'two')).status).toBe(200)
    const third = await chatSend(ada.token, conversation.id, 'three')
    expect([third.status, third.body.error.code]).toEqual([402, 'entitlement_exceeded'])
    expect(third.body.error.message).toContain('chat.messages')
    const messages = (await h.call('GET', `/chat/conversations/${conversation.id}`, { token: ada.token })).body.messages
    expect(messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content)).toEqual(['one', 'two'])
    const chat = (await h.call('GET', '/billing/me', { token: ada.token })).body.entitlements.find((e: { feature: string }) => e.feature === 'chat.messages')
    expect(chat).toMatchObject({ limit: 2, used: 2, remaining: 0 })

    // With no limit on chat.messages a send is only metered: counted after its commit, in batches, and shown at once.
    await h.call('PATCH', '/billing/plans/tiny', { ...as, body: { entitlements: [{ feature: 'storage.bytes', limit: 100 }] } })
    expect((await chatSend(ada.token, conversation.id, 'metered')).status).toBe(200)
    const meteredNow = (await h.call('GET', '/billing/me', { token: ada.token })).body.entitlements.find(
      (e: { feature: string }) => e.feature === 'chat.messages',
    )
    expect(meteredNow).toMatchObject({ limit: null, used: 3, remaining: null })
    await h.app.services.billing.entitlements.flush()
    expect((await h.call('POST', '/billing/check', { ...as, body: { feature: 'chat.messages', customerId: ada.customerId } })).body).toEqual({
      allowed: true,
      limit: null,
      used: 3,
      remaining: null,
    })

    // A plan change reaches the check at once (the cached standing is dropped at commit).
    await h.call('PATCH', '/billing/plans/tiny', { ...as, body: { entitlements: [{ feature: 'chat.messages', limit: 4 }] } })
    expect((await chatSend(ada.token, conversation.id, 'three')).status).toBe(200)
    expect((await chatSend(ada.token, conversation.id, 'five')).status).toBe(402)
    expect((await presign(ada.token, 150)).status).toBe(201)
  })

  test('usage: idempotent per key (also within one batch), counted in the month of `at`; unknown features and customers refused', async () => {
    const eco = await provision(h, owner)
    const as = eco.as(owner)
    await h.call('POST', '/billing/features', { ...as, body: { key: 'api.calls', name: 'API calls', type: 'metered' } })
    await h.call('POST', '/billing/features', { ...as, body: { key: 'seats', name: 'Seats', type: 'limit' } })
    await h.call('POST', '/billing/plans', {
      ...as,
      body: {
        key: 'std',
        name: 'Standard',
        isDefault: true,
        entitlements: [
          { feature: 'api.calls', limit: 1000 },
          { feature: 'seats', limit: 5 },
        ],
      },
    })
    const ada = await customerOf(h, eco, owner)
    const event = (key: string, value: number, extra: Record<string, unknown> = {}) => ({
      customerId: ada.customerId,
      feature: 'api.calls',
      value,
      idempotencyKey: key,
      ...extra,
    })
    const first = await h.call('POST', '/billing/usage', { ...as, body: { events: [event('a', 10), event('b', 5), event('a', 10)] } })
    expect(first.body).toEqual({ accepted: 2, duplicates: 1 })
    expect(
      (
        await h.call('POST', '/billing/usage', {
          ...as,
          body: { events: [event('a', 10), event('c', 1), event('last-year', 500, { at: '2025-01-15T00:00:00Z' })] },
        })
      ).body,
    ).toEqual({ accepted: 2, duplicates: 1 })
    await h.call('POST', '/billing/usage', {
      ...as,
      body: {
        events: [
          { customerId: ada.customerId, feature: 'seats', value: 3, idempotencyKey: 's1' },
          { customerId: ada.customerId, feature: 'seats', value: -1, idempotencyKey: 's2' },
        ],
      },
    })
    const account = (await h.call('GET', `/billing/customers/${ada.customerId}`, as)).body
    const of = (f: string) => account.entitlements.find((e: { feature: string }) => e.feature === f)
    expect(of('api.calls')).toMatchObject({ used: 16, remaining: 984 })
    expect(of('seats')).toMatchObject({ used: 2, remaining: 3, resetsAt: null })

    const unknown = await h.call('POST', '/billing/usage', { ...as, body: { events: [{ ...event('x', 1), feature: 'nothing' }] } })
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'feature_not_found'])
    expect((await h.call('POST', '/billing/usage', { ...as, body: { events: [{ ...event('x', 1), feature: 'storage.bytes' }] } })).body.error.code).toBe(
      'builtin_feature',
    )
    const other = await customerOf(h, org, owner)
    expect((await h.call('POST', '/billing/usage', { ...as, body: { events: [{ ...event('x', 1), customerId: other.customerId }] } })).status).toBe(404)
    expect((await h.call('POST', '/billing/usage', { token: ada.token, body: { events: [event('x', 1)] } })).status).toBe(403)
    expect((await h.call('POST', '/billing/usage', { ...as, body: { events: [] } })).status).toBe(400)
  })

  test('numbers are numbers: "1e3", "0x10" and "5" are 400 and count nothing; negative usage only on limit features and metered ones that declare it, and no counter goes below 0', async () => {
    const eco = await provision(h, owner)
    const as = eco.as(owner)
    await h.call('POST', '/billing/features', { ...as, body: { key: 'api.calls', name: 'API calls', type: 'metered' } })
    await h.call('POST', '/billing/features', { ...as, body: { key: 'seats', name: 'Seats', type: 'limit' } })
    const credits = await h.call('POST', '/billing/features', { ...as, body: { key: 'credits', name: 'Credits', type: 'metered', allowNegative: true } })
    expect(credits.body).toMatchObject({ key: 'credits', allowNegative: true })
    const notMetered = await h.call('POST', '/billing/features', { ...as, body: { key: 'slots', name: 'Slots', type: 'limit', allowNegative: true } })
    expect([notMetered.status, notMetered.body.error.code]).toEqual([400, 'validation_failed'])
    await h.call('POST', '/billing/plans', {
      ...as,
      body: {
        key: 'std',
        name: 'Standard',
        isDefault: true,
        entitlements: [
          { feature: 'api.calls', limit: 1000 },
          { feature: 'seats', limit: 3 },
          { feature: 'credits', limit: 100 },
        ],
      },
    })
    const ada = await customerOf(h, eco, owner)
    const event = (feature: string, value: unknown, key = crypto.randomUUID()) => ({ customerId: ada.customerId, feature, value, idempotencyKey: key })
    const usage = (...events: unknown[]) => h.call('POST', '/billing/usage', { ...as, body: { events } })
    const used = async (feature: string) =>
      (await h.call('GET', `/billing/customers/${ada.customerId}`, as)).body.entitlements.find((e: { feature: string }) => e.feature === feature).used

    for (const value of ['1e3', '0x10', '5']) {
      const res = await usage(event('api.calls', value))
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([400, 'validation_failed', expect.stringContaining('value')])
    }
    const stringAmount = await h.call('POST', '/billing/check', { token: ada.token, body: { feature: 'seats', amount: '5' } })
    expect([stringAmount.status, stringAmount.body.error.code]).toEqual([400, 'validation_failed'])
    expect(await used('api.calls')).toBe(0)

    const refund = await usage(event('api.calls', 10), event('api.calls', -4))
    expect([refund.status, refund.body.error.message]).toEqual([400, 'events.1.value: api.calls takes no negative usage (its allowNegative is false)'])
    expect(await used('api.calls')).toBe(0)

    // Seats: given back down to 0, never below, so a limit of 3 stays 3.
    expect((await usage(event('seats', 2))).body.accepted).toBe(1)
    expect((await usage(event('seats', -5))).body.accepted).toBe(1)
    expect(await used('seats')).toBe(0)
    expect((await h.call('POST', '/billing/check', { token: ada.token, body: { feature: 'seats', amount: 5 } })).body).toEqual({
      allowed: false,
      limit: 3,
      used: 0,
      remaining: 3,
    })
    expect((await h.call('POST', '/billing/check', { token: ada.token, body: { feature: 'seats', amount: 3 } })).body.allowed).toBe(true)

    // Credits declare it: refunds count, down to 0.
    await usage(event('credits', 30))
    await usage(event('credits', -10))
    expect(await used('credits')).toBe(20)
    await usage(event('credits', -50))
    expect(await used('credits')).toBe(0)
  })

  test('check with reserve: of concurrent reserves of the last units exactly the limit succeed; a customer checks only itself', async () => {
    const eco = await provision(h, owner)
    const as = eco.as(owner)
    await h.call('POST', '/billing/features', { ...as, body: { key: 'exports', name: 'Exports', type: 'metered' } })
    await h.call('POST', '/billing/plans', { ...as, body: { key: 'std', name: 'Standard', isDefault: true, entitlements: [{ feature: 'exports', limit: 3 }] } })
    const ada = await customerOf(h, eco, owner)
    const bob = await customerOf(h, eco, owner)
    const reserve = () => h.call('POST', '/billing/check', { token: ada.token, body: { feature: 'exports', reserve: true } })
    const results = await Promise.all(Array.from({ length: 8 }, reserve))
    expect(results.filter((r) => r.body.allowed).length).toBe(3)
    expect(results.every((r) => r.status === 200)).toBe(true)
    expect((await h.call('POST', '/billing/check', { token: ada.token, body: { feature: 'exports' } })).body).toEqual({
      allowed: false,
      limit: 3,
      used: 3,
      remaining: 0,
    })
    expect((await h.call('POST', '/billing/check', { token: ada.token, body: { feature: 'exports', customerId: bob.customerId } })).status).toBe(403)
    expect((await h.call('POST', '/billing/check', { ...as, body: { feature: 'exports', customerId: bob.customerId, amount: 3 } })).body).toEqual({
      allowed: true,
      limit: 3,
      used: 0,
      remaining: 3,
    })
    expect((await h.call('POST', '/billing/check', { token: ada.token, body: { feature: 'nothing' } })).body.error.code).toBe('feature_not_found')
    // overage: allow keeps counting past the limit.
    await h.call('PATCH', '/billing/plans/std', { ...as, body: { entitlements: [{ feature: 'exports', limit: 3, overage: 'allow' }] } })
    expect((await reserve()).body).toEqual({ allowed: true, limit: 3, used: 4, remaining: 0 })
  })
})
