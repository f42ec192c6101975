import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'
import { until } from '../support/wait'

// Billing as it is read from elsewhere: the public price list, another replica, the typed client.
let h: Harness
let owner: RegisteredUser
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
})
afterAll(() => h.close())

describe('billing: the public price list', () => {
  test('GET /billing/catalogue: the plans marked public, cheapest first, with prices and entitlements, for anyone naming the ecosystem and for its customers; through the typed client too', async () => {
    const eco = await provision(h, owner)
    const as = eco.as(owner)
    await h.call('POST', '/billing/features', { ...as, body: { key: 'exports', name: 'Exports', type: 'boolean' } })
    await h.call('POST', '/billing/plans', {
      ...as,
      body: {
        key: 'team',
        name: 'Team',
        public: true,
        prices: [{ amount: 49000, currency: 'usd', interval: 'year', stripePriceId: 'price_team_year' }],
        entitlements: [{ feature: 'exports' }, { feature: 'chat.messages', limit: 50_000, overage: 'allow' }],
      },
    })
    await h.call('POST', '/billing/plans', {
      ...as,
      body: { key: 'free', name: 'Free', public: true, isDefault: true, entitlements: [{ feature: 'chat.messages', limit: 100 }] },
    })
    await h.call('POST', '/billing/plans', {
      ...as,
      body: {
        key: 'pro',
        name: 'Pro',
        public: true,
        trialDays: 14,
        prices: [{ amount: 1900, currency: 'usd', interval: 'month', stripePriceId: 'price_pro_month' }],
        entitlements: [{ feature: 'storage.bytes', limit: 10_000_000 }],
      },
    })
    await h.call('POST', '/billing/plans', { ...as, body: { key: 'staff', name: 'Staff comp', prices: [{ amount: 0, currency: 'usd', interval: 'month' }] } })

    const anonymous = await h.call('GET', `/billing/catalogue?ecosystem=${eco.ecosystem.id}`)
    expect(anonymous.status).toBe(200)
    expect(anonymous.body).toEqual({
      ecosystemId: eco.ecosystem.id,
      currency: 'usd',
      plans: [
        {
          key: 'free',
          name: 'Free',
          description: '',
          isDefault: true,
          trialDays: 0,
          prices: [],
          entitlements: [
            { feature: 'chat.messages', name: 'Chat messages', type: 'metered', unit: 'messages', reset: 'month', enabled: true, limit: 100, overage: 'block' },
          ],
        },
        {
          key: 'pro',
          name: 'Pro',
          description: '',
          isDefault: false,
          trialDays: 14,
          prices: [{ amount: 1900, currency: 'usd', interval: 'month' }],
          entitlements: [
            { feature: 'storage.bytes', name: 'Storage', type: 'limit', unit: 'bytes', reset: 'never', enabled: true, limit: 10_000_000, overage: 'block' },
          ],
        },
        {
          key: 'team',
          name: 'Team',
          description: '',
          isDefault: false,
          trialDays: 0,
          prices: [{ amount: 49000, currency: 'usd', interval: 'year' }],
          entitlements: [
            { feature: 'exports', name: 'Exports', type: 'boolean', unit: '', reset: 'never', enabled: true, limit: null, overage: 'block' },
            {
              feature: 'chat.messages',
              name: 'Chat messages',
              type: 'metered',
              unit: 'messages',
              reset: 'month',
              enabled: true,
              limit: 50_000,
              overage: 'allow',
            },
          ],
        },
      ],
    })
    expect((await h.call('GET', `/billing/catalogue?ecosystem=${eco.ecosystem.rdid}`)).body).toEqual(anonymous.body)
    const ada = await customerOf(h, eco, owner)
    expect((await h.call('GET', '/billing/catalogue', { token: ada.token })).body).toEqual(anonymous.body)
    expect((await h.call('GET', '/billing/catalogue', as)).body).toEqual(anonymous.body)
    // The admins' list stays theirs.
    expect((await h.call('GET', '/billing/plans', { token: ada.token })).status).toBe(403)
    const none = await h.call('GET', '/billing/catalogue')
    expect([none.status, none.body.error.code]).toEqual([400, 'ecosystem_required'])
    expect((await h.call('GET', `/billing/catalogue?ecosystem=${crypto.randomUUID()}`)).status).toBe(404)
    const other = await provision(h, owner)
    expect((await h.call('GET', `/billing/catalogue?ecosystem=${other.ecosystem.id}`)).body).toEqual({
      ecosystemId: other.ecosystem.id,
      currency: 'usd',
      plans: [],
    })

    const { connect } = await import('../client/connect')
    const { data } = await connect(h).client.api.billing.catalogue.get({ query: { ecosystem: eco.ecosystem.id } })
    expect(data!.plans.map((p) => p.key)).toEqual(['free', 'pro', 'team'])
  })
})

describe('billing across replicas', () => {
  test('a plan change on one replica reaches the cached standing on another at once', async () => {
    const eco = await provision(h, owner)
    const as = eco.as(owner)
    await h.call('POST', '/billing/features', { ...as, body: { key: 'exports', name: 'Exports', type: 'metered' } })
    await h.call('POST', '/billing/plans', { ...as, body: { key: 'std', name: 'Standard', isDefault: true, entitlements: [{ feature: 'exports', limit: 1 }] } })
    const ada = await customerOf(h, eco, owner)
    const replica = await h.replica()
    try {
      const check = async () => (await replica.call('POST', '/billing/check', { token: ada.token, body: { feature: 'exports', amount: 5 } })).body
      // The replica reads the standing once and keeps it.
      expect(await check()).toEqual({ allowed: false, limit: 1, used: 0, remaining: 1 })
      await h.call('PATCH', '/billing/plans/std', { ...as, body: { entitlements: [{ feature: 'exports', limit: 10 }] } })
      await until(async () => (await check()).limit === 10, 5000)
      expect(await check()).toEqual({ allowed: true, limit: 10, used: 0, remaining: 10 })
    } finally {
      await replica.close()
    }
  })
})

describe('billing through the typed client', () => {
  test('client.api.billing: a customer reads its account and reserves; an admin assigns a plan; failures are typed', async () => {
    const { connect } = await import('../client/connect')
    const eco = await provision(h, owner)
    await h.call('POST', '/billing/features', { ...eco.as(owner), body: { key: 'exports', name: 'Exports', type: 'metered' } })
    await h.call('POST', '/billing/plans', {
      ...eco.as(owner),
      body: { key: 'std', name: 'Standard', isDefault: true, entitlements: [{ feature: 'exports', limit: 1 }] },
    })
    const ada = await customerOf(h, eco, owner)
    const customer = connect(h, { tokens: { token: ada.token } }).client
    const { data: me } = await customer.api.billing.me.get()
    expect(me!.plan).toBe('std')
    const exports = me!.entitlements.find((e) => e.feature === 'exports')!
    expect([exports.limit, exports.used]).toEqual([1, 0])
    expect((await customer.api.billing.check.post({ feature: 'exports', reserve: true })).data).toEqual({ allowed: true, limit: 1, used: 1, remaining: 0 })
    expect((await customer.api.billing.check.post({ feature: 'exports', reserve: true })).data!.allowed).toBe(false)
    const { error } = await customer.api.billing.customers({ customerId: ada.customerId }).get()
    expect(error!.status).toBe(403)

    const adminClient = connect(h, { tokens: { token: owner.token }, ecosystem: eco.ecosystem.id }).client
    await adminClient.api.billing.plans.post({ key: 'pro', name: 'Pro', entitlements: [{ feature: 'exports', limit: 100 }] })
    const { data: assigned } = await adminClient.api.billing.customers({ customerId: ada.customerId }).plan.put({ plan: 'pro' })
    expect([assigned!.plan, assigned!.source]).toEqual(['pro', 'manual'])
  })
})
