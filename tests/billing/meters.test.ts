import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { startFakeStripe } from '../support/fake-stripe'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'
import { until } from '../support/wait'

// Usage-based charging: accepted usage of a metered feature that names a Stripe meter reaches
// Stripe as billing meter events (the official SDK, against the local Stripe-shaped server), with
// the idempotency key as `identifier`, from an outbox written with the usage, through the queue.

const SECRET_KEY = 'sk_test_meters'
let stripe: ReturnType<typeof startFakeStripe>
let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  stripe = startFakeStripe(SECRET_KEY)
  h = await createHarness({ STRIPE_API_URL: stripe.url })
  owner = await h.register()
  org = await provision(h, owner)
  const as = org.as(owner)
  await h.call('PUT', '/billing/settings', { ...as, body: { provider: 'stripe', stripeSecretKey: SECRET_KEY, stripeWebhookSecret: 'whsec_meters' } })
  expect(
    (await h.call('POST', '/billing/features', { ...as, body: { key: 'api.calls', name: 'API calls', type: 'metered', stripeMeter: 'api_calls' } })).body
      .stripeMeter,
  ).toBe('api_calls')
  await h.call('POST', '/billing/features', {
    ...as,
    body: { key: 'credits', name: 'Credits', type: 'metered', allowNegative: true, stripeMeter: 'credits_used' },
  })
  await h.call('POST', '/billing/features', { ...as, body: { key: 'exports', name: 'Exports', type: 'metered' } })
  await h.call('POST', '/billing/plans', {
    ...as,
    body: {
      key: 'usage',
      name: 'Pay as you go',
      isDefault: true,
      prices: [{ amount: 0, currency: 'usd', interval: 'month', stripePriceId: 'price_usage' }],
      entitlements: [{ feature: 'api.calls' }, { feature: 'credits' }, { feature: 'exports' }],
    },
  })
})
afterAll(async () => {
  await h.close()
  stripe.close()
})

const as = () => org.as(owner)
/** A customer with a Stripe customer (made by its first Checkout). */
async function payingCustomer() {
  const c = await customerOf(h, org, owner)
  const checkout = await h.call('POST', '/billing/checkout', {
    token: c.token,
    body: { plan: 'usage', interval: 'month', successUrl: 'https://shop.test/ok', cancelUrl: 'https://shop.test/no' },
  })
  const stripeCustomerId = stripe.sessions.get(checkout.body.url.split('/').at(-1))!.customer
  return { ...c, stripeCustomerId }
}
const usage = (...events: { customerId: string; feature: string; value: number; idempotencyKey: string; at?: string }[]) =>
  h.call('POST', '/billing/usage', { ...as(), body: { events } })
const reported = async (customerId: string, feature = 'api.calls') =>
  (await h.call('GET', `/billing/customers/${customerId}`, as())).body.entitlements.find((e: { feature: string }) => e.feature === feature).reported
const sentTo = (stripeCustomerId: string) => [...stripe.meterEvents.values()].filter((e) => e.stripeCustomerId === stripeCustomerId)
const meters = () => h.app.services.billing.meters
const attempts = async (key: string) =>
  Number((await queryRows<{ attempts: number }>(h.db, sql`select attempts from billing.meter_outbox where idempotency_key = ${key}`))[0]?.attempts ?? 0)

describe('usage sent to Stripe meters', () => {
  test('accepted usage goes out as meter events, the idempotency key as identifier, once; the billing page shows what was reported', async () => {
    const ada = await payingCustomer()
    const key = (n: number) => `ada-${ada.customerId}-${n}`
    expect(
      (
        await usage(
          { customerId: ada.customerId, feature: 'api.calls', value: 120, idempotencyKey: key(1) },
          { customerId: ada.customerId, feature: 'api.calls', value: 30, idempotencyKey: key(2) },
        )
      ).body,
    ).toEqual({ accepted: 2, duplicates: 0 })
    await until(() => sentTo(ada.stripeCustomerId).length === 2, 15_000)
    expect(
      sentTo(ada.stripeCustomerId)
        .map((e) => [e.identifier, e.eventName, e.value])
        .sort(),
    ).toEqual([
      [key(1), 'api_calls', 120],
      [key(2), 'api_calls', 30],
    ])
    await until(async () => (await reported(ada.customerId)).sent === 150, 5000)
    const me = (await h.call('GET', '/billing/me', { token: ada.token })).body.entitlements.find((e: { feature: string }) => e.feature === 'api.calls')
    expect(me).toMatchObject({ used: 150, reported: { meter: 'api_calls', sent: 150, pending: 0, failed: 0 } })

    // The same keys again: nothing new to send. A row sent but not marked (a crash after Stripe
    // answered) goes out again, and Stripe counts its identifier once.
    expect((await usage({ customerId: ada.customerId, feature: 'api.calls', value: 120, idempotencyKey: key(1) })).body).toEqual({ accepted: 0, duplicates: 1 })
    await h.db.execute(sql`update billing.meter_outbox set sent_at = null where idempotency_key = ${key(1)}`)
    expect((await reported(ada.customerId)).pending).toBe(120)
    expect(await meters().send(org.ecosystem.id)).toEqual({ sent: 1, refused: 0 })
    expect(stripe.meterEvents.get(key(1))).toMatchObject({ value: 120, received: 2 })
    expect(sentTo(ada.stripeCustomerId).reduce((sum, e) => sum + e.value, 0)).toBe(150)
    expect(await reported(ada.customerId)).toEqual({ meter: 'api_calls', sent: 150, pending: 0, failed: 0 })
  })

  test('only what can be charged is sent: features without a meter, customers without a Stripe customer, and given-back use stay home', async () => {
    const bob = await payingCustomer()
    const walkIn = await customerOf(h, org, owner)
    const before = stripe.meterEvents.size
    await usage(
      { customerId: bob.customerId, feature: 'exports', value: 5, idempotencyKey: `bob-exports-${bob.customerId}` },
      { customerId: walkIn.customerId, feature: 'api.calls', value: 7, idempotencyKey: `walk-in-${walkIn.customerId}` },
      { customerId: bob.customerId, feature: 'credits', value: 40, idempotencyKey: `bob-credits-1-${bob.customerId}` },
      { customerId: bob.customerId, feature: 'credits', value: -10, idempotencyKey: `bob-credits-2-${bob.customerId}` },
    )
    await until(() => stripe.meterEvents.size === before + 1, 15_000)
    expect(sentTo(bob.stripeCustomerId).map((e) => [e.eventName, e.value])).toEqual([['credits_used', 40]])
    expect(await reported(walkIn.customerId)).toEqual({ meter: 'api_calls', sent: 0, pending: 0, failed: 0 })
    expect(await reported(bob.customerId, 'exports')).toBeNull()
  })

  test('while Stripe fails the queue retries until it is sent; what Stripe refuses is kept as failed and shown', async () => {
    const cleo = await payingCustomer()
    stripe.outage(true)
    try {
      await usage({ customerId: cleo.customerId, feature: 'api.calls', value: 9, idempotencyKey: `cleo-1-${cleo.customerId}` })
      // The job ran and failed (the queue will run it again).
      await until(async () => (await attempts(`cleo-1-${cleo.customerId}`)) >= 1, 15_000)
      expect(await reported(cleo.customerId)).toEqual({ meter: 'api_calls', sent: 0, pending: 9, failed: 0 })
    } finally {
      stripe.outage(false)
    }
    await until(async () => (await reported(cleo.customerId)).sent === 9, 60_000)
    expect(sentTo(cleo.stripeCustomerId).map((e) => e.value)).toEqual([9])

    stripe.meter.mode = 'refuse'
    try {
      await usage({ customerId: cleo.customerId, feature: 'api.calls', value: 4, idempotencyKey: `cleo-2-${cleo.customerId}` })
      await until(async () => (await reported(cleo.customerId)).failed === 4, 15_000)
    } finally {
      stripe.meter.mode = 'accept'
    }
    expect(await meters().send(org.ecosystem.id)).toEqual({ sent: 0, refused: 0 })
    expect(await reported(cleo.customerId)).toEqual({ meter: 'api_calls', sent: 9, pending: 0, failed: 4 })
  }, 90_000)

  test('a feature’s Stripe meter is for metered features only', async () => {
    const res = await h.call('POST', '/billing/features', { ...as(), body: { key: 'seats', name: 'Seats', type: 'limit', stripeMeter: 'seats' } })
    expect([res.status, res.body.error.code]).toEqual([400, 'validation_failed'])
    expect((await h.call('PATCH', '/billing/features/exports', { ...as(), body: { stripeMeter: 'exports_made' } })).body.stripeMeter).toBe('exports_made')
  })
})
