import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeStripe } from '../support/fake-stripe'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'
import type { ReplicaCache } from '../../src/platform/replica-cache'

// The official stripe SDK, pointed (STRIPE_API_URL → host/port/protocol) at a Stripe-shaped server;
// webhook bodies signed with the SDK's own generateTestHeaderString.

const SECRET_KEY = 'sk_test_ecobase'
const WEBHOOK_SECRET = 'whsec_ecobase_test'
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
  await h.call('POST', '/billing/plans', {
    ...as,
    body: { key: 'free', name: 'Free', isDefault: true, entitlements: [{ feature: 'chat.messages', limit: 10 }] },
  })
  await h.call('POST', '/billing/plans', {
    ...as,
    body: {
      key: 'pro',
      name: 'Pro',
      trialDays: 14,
      prices: [{ amount: 1900, currency: 'usd', interval: 'month', stripePriceId: 'price_pro_month' }],
      entitlements: [{ feature: 'chat.messages', limit: 1000 }],
    },
  })
})
afterAll(async () => {
  await h.close()
  stripe.close()
})

const as = () => org.as(owner)
async function webhook(type: string, object: Record<string, unknown>, options: { id?: string; secret?: string } = {}) {
  const event = await stripe.event(options.secret ?? WEBHOOK_SECRET, type, object, options.id)
  const res = await h.app.handle(
    new Request(`http://localhost/billing/stripe/webhook/${org.ecosystem.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
      body: event.payload,
    }),
  )
  return { status: res.status, body: await res.json(), id: event.id }
}

describe('billing with Stripe', () => {
  test('settings: Stripe needs both keys; they are write-only; until then Checkout is 409 billing_not_configured', async () => {
    const ada = await customerOf(h, org, owner)
    const early = await h.call('POST', '/billing/checkout', {
      token: ada.token,
      body: { plan: 'pro', interval: 'month', successUrl: 'https://shop.test/ok', cancelUrl: 'https://shop.test/no' },
    })
    expect([early.status, early.body.error.code]).toEqual([409, 'billing_not_configured'])
    expect((await h.call('GET', '/billing/settings', as())).body).toEqual({ provider: 'manual', currency: 'usd', configKeys: [] })
    expect((await h.call('PUT', '/billing/settings', { ...as(), body: { provider: 'stripe', stripeSecretKey: SECRET_KEY } })).status).toBe(400)
    // Plan pro sells in usd: the ecosystem cannot bill in eur until its prices do.
    const euros = await h.call('PUT', '/billing/settings', {
      ...as(),
      body: { provider: 'stripe', currency: 'eur', stripeSecretKey: SECRET_KEY, stripeWebhookSecret: WEBHOOK_SECRET },
    })
    expect([euros.status, euros.body.error.code]).toEqual([409, 'in_use'])
    const set = await h.call('PUT', '/billing/settings', {
      ...as(),
      body: { provider: 'stripe', currency: 'usd', stripeSecretKey: SECRET_KEY, stripeWebhookSecret: WEBHOOK_SECRET },
    })
    expect(set.body).toEqual({ provider: 'stripe', currency: 'usd', configKeys: ['stripeSecretKey', 'stripeWebhookSecret'] })
    // Keys are kept when omitted.
    expect((await h.call('PUT', '/billing/settings', { ...as(), body: { provider: 'stripe' } })).body.configKeys).toEqual([
      'stripeSecretKey',
      'stripeWebhookSecret',
    ])
    expect(JSON.stringify((await h.call('GET', '/billing/settings', as())).body)).not.toContain(SECRET_KEY)
    expect((await h.call('GET', '/billing/settings', { token: ada.token })).status).toBe(403)
  })

  test('Checkout: one Stripe customer per Ecobase customer, the plan’s price and trial; the webhook mirrors the subscription and the plan is in force', async () => {
    const ada = await customerOf(h, org, owner)
    const body = { plan: 'pro', interval: 'month', successUrl: 'https://shop.test/ok', cancelUrl: 'https://shop.test/no' }
    const first = await h.call('POST', '/billing/checkout', { token: ada.token, body })
    const second = await h.call('POST', '/billing/checkout', { token: ada.token, body })
    expect(first.body.url).toStartWith('https://checkout.stripe.test/c/pay/cs_test_')
    expect(stripe.requests.filter((r) => r === 'POST /v1/customers').length).toBe(1)
    const session = stripe.sessions.get(first.body.url.split('/').at(-1))!
    expect(session).toMatchObject({
      price: 'price_pro_month',
      trialDays: 14,
      metadata: { customerId: ada.customerId, plan: 'pro', ecosystemId: org.ecosystem.id },
    })
    expect(stripe.sessions.get(second.body.url.split('/').at(-1))!.customer).toBe(session.customer)
    expect((await h.call('POST', '/billing/checkout', { token: ada.token, body: { ...body, interval: 'year' } })).body.error.code).toBe('no_price')
    expect((await h.call('POST', '/billing/checkout', { token: ada.token, body: { ...body, plan: 'gold' } })).body.error.code).toBe('plan_not_found')

    const sub = stripe.completeCheckout(session.id)
    const done = await webhook('checkout.session.completed', { id: session.id, object: 'checkout.session' })
    expect(done).toMatchObject({ status: 200, body: { received: true, duplicate: false } })
    const me = (await h.call('GET', '/billing/me', { token: ada.token })).body
    expect(me).toMatchObject({
      plan: 'pro',
      source: 'stripe',
      subscription: { id: sub.id, plan: 'pro', status: 'trialing', cancelAtPeriodEnd: false, trialEnd: expect.any(String) },
    })
    expect(me.entitlements.find((e: { feature: string }) => e.feature === 'chat.messages').limit).toBe(1000)

    const portal = await h.call('POST', '/billing/portal', { token: ada.token, body: { returnUrl: 'https://shop.test/account' } })
    expect(portal.body.url).toStartWith('https://billing.stripe.test/p/session/')
    expect(stripe.requests.filter((r) => r === 'POST /v1/customers').length).toBe(1)
  })

  test('webhooks arrive in any order and repeat: the subscription is re-fetched, so a late "active" after a cancel leaves it canceled; a replay is a duplicate; a bad signature is 400', async () => {
    const bob = await customerOf(h, org, owner)
    const { body } = await h.call('POST', '/billing/checkout', {
      token: bob.token,
      body: { plan: 'pro', interval: 'month', successUrl: 'https://shop.test/ok', cancelUrl: 'https://shop.test/no' },
    })
    const sub = stripe.completeCheckout(body.url.split('/').at(-1))
    sub.status = 'active'
    const activeEvent = stripe.subscriptionObject(sub)
    // Stripe cancels it; the cancellation's event arrives first, the earlier "updated: active" after it.
    sub.status = 'canceled'
    expect((await webhook('customer.subscription.deleted', stripe.subscriptionObject(sub))).status).toBe(200)
    const late = await webhook('customer.subscription.updated', activeEvent)
    expect(late.status).toBe(200)
    const me = (await h.call('GET', '/billing/me', { token: bob.token })).body
    expect(me).toMatchObject({ plan: 'free', source: 'default', subscription: { id: sub.id, status: 'canceled' } })

    const replay = await webhook('customer.subscription.updated', activeEvent, { id: late.id })
    expect(replay.body).toEqual({ received: true, duplicate: true })
    const forged = await webhook('customer.subscription.updated', activeEvent, { secret: 'whsec_someone_else' })
    expect([forged.status, forged.body.error.code]).toEqual([400, 'invalid_signature'])
    const unsigned = await h.app.handle(
      new Request(`http://localhost/billing/stripe/webhook/${org.ecosystem.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    )
    expect(unsigned.status).toBe(400)
  })

  test('past_due keeps the plan for BILLING_GRACE_DAYS after the period ended, then the default applies; a manual assignment wins over the subscription', async () => {
    const cleo = await customerOf(h, org, owner)
    const { body } = await h.call('POST', '/billing/checkout', {
      token: cleo.token,
      body: { plan: 'pro', interval: 'month', successUrl: 'https://shop.test/ok', cancelUrl: 'https://shop.test/no' },
    })
    const sub = stripe.completeCheckout(body.url.split('/').at(-1))
    const day = 86400
    sub.status = 'past_due'
    sub.current_period_end = Math.floor(Date.now() / 1000) - 2 * day
    await webhook('customer.subscription.updated', stripe.subscriptionObject(sub))
    expect((await h.call('GET', '/billing/me', { token: cleo.token })).body).toMatchObject({
      plan: 'pro',
      source: 'stripe',
      subscription: { status: 'past_due' },
    })
    sub.current_period_end = Math.floor(Date.now() / 1000) - 8 * day
    await webhook('customer.subscription.updated', stripe.subscriptionObject(sub))
    expect((await h.call('GET', '/billing/me', { token: cleo.token })).body).toMatchObject({ plan: 'free', source: 'default' })
    for (const status of ['unpaid', 'paused', 'incomplete']) {
      sub.status = status
      await webhook('customer.subscription.updated', stripe.subscriptionObject(sub))
      expect((await h.call('GET', '/billing/me', { token: cleo.token })).body).toMatchObject({ plan: 'free', source: 'default', subscription: { status } })
    }
    sub.status = 'active'
    sub.current_period_end = Math.floor(Date.now() / 1000) + 20 * day
    await webhook('customer.subscription.updated', stripe.subscriptionObject(sub))
    expect((await h.call('GET', '/billing/me', { token: cleo.token })).body).toMatchObject({ plan: 'pro', source: 'stripe' })
    await h.call('PUT', `/billing/customers/${cleo.customerId}/plan`, { ...as(), body: { plan: 'free' } })
    expect((await h.call('GET', `/billing/customers/${cleo.customerId}`, as())).body).toMatchObject({
      plan: 'free',
      source: 'manual',
      subscription: { status: 'active' },
    })
    const feed = (await h.call('GET', '/site/feed?source=billing', { token: cleo.token })).body.items.map((i: { summary: string }) => i.summary)
    expect(feed).toEqual(['Your plan is now free', 'Your plan is now pro', 'Your plan is now free', 'Your plan is now pro'])
  })

  test('invoices are mirrored from their webhooks, newest first, for the customer and its admins', async () => {
    const dan = await customerOf(h, org, owner)
    const { body } = await h.call('POST', '/billing/checkout', {
      token: dan.token,
      body: { plan: 'pro', interval: 'month', successUrl: 'https://shop.test/ok', cancelUrl: 'https://shop.test/no' },
    })
    const session = stripe.sessions.get(body.url.split('/').at(-1))!
    const older = stripe.addInvoice(session.customer, { created: Math.floor(Date.now() / 1000) - 3600, status: 'open' })
    const newer = stripe.addInvoice(session.customer, { total: 2900 })
    await webhook('invoice.paid', { id: newer.id, object: 'invoice' })
    await webhook('invoice.finalized', { id: older.id, object: 'invoice' })
    older.status = 'paid'
    await webhook('invoice.paid', { id: older.id, object: 'invoice' })
    const mine = (await h.call('GET', '/billing/me/invoices', { token: dan.token })).body
    expect(mine.total).toBe(2)
    expect(mine.items.map((i: { id: string; status: string; total: number }) => [i.id, i.status, i.total])).toEqual([
      [newer.id, 'paid', 2900],
      [older.id, 'paid', 1900],
    ])
    expect(mine.items[0]).toMatchObject({ number: newer.number, currency: 'usd', hostedInvoiceUrl: newer.hosted_invoice_url, periodStart: expect.any(String) })
    expect((await h.call('GET', `/billing/customers/${dan.customerId}/invoices`, as())).body.total).toBe(2)
  })
})

describe('Checkout as Stripe documents it', () => {
  const checkout = (token: string, body: Record<string, unknown> = {}) =>
    h.call('POST', '/billing/checkout', {
      token,
      body: { plan: 'pro', interval: 'month', successUrl: 'https://shop.test/ok', cancelUrl: 'https://shop.test/no', ...body },
    })

  test('success and cancel URLs are http(s) only, and {CHECKOUT_SESSION_ID} reaches Stripe as written', async () => {
    const fay = await customerOf(h, org, owner)
    for (const bad of ['javascript:alert(1)', 'ftp://shop.test/ok', 'data:text/html,hi', 'https://', '//shop.test/ok', 'https://shop.test/ ok']) {
      for (const field of ['successUrl', 'cancelUrl']) {
        const res = await checkout(fay.token, { [field]: bad })
        expect([bad, field, res.status, res.body.error.code]).toEqual([bad, field, 400, 'validation_failed'])
      }
    }
    expect((await h.call('POST', '/billing/portal', { token: fay.token, body: { returnUrl: 'javascript:alert(1)' } })).status).toBe(400)
    const ok = await checkout(fay.token, { successUrl: 'https://shop.test/ok?session_id={CHECKOUT_SESSION_ID}', cancelUrl: 'http://localhost:5173/billing' })
    expect(ok.status).toBe(200)
    expect(stripe.sessions.get(ok.body.url.split('/').at(-1))).toMatchObject({
      successUrl: 'https://shop.test/ok?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'http://localhost:5173/billing',
    })
  })

  test('a live subscription: a second Checkout is 409 subscription_exists with the portal’s address; once it is canceled Checkout works again, without a second trial', async () => {
    const gus = await customerOf(h, org, owner)
    const first = await checkout(gus.token)
    const session = stripe.sessions.get(first.body.url.split('/').at(-1))!
    expect(session.trialDays).toBe(14)
    const sub = stripe.completeCheckout(session.id)
    await webhook('checkout.session.completed', { id: session.id, object: 'checkout.session' })
    const sessionsBefore = stripe.sessions.size
    const again = await checkout(gus.token)
    expect([again.status, again.body.error.code]).toEqual([409, 'subscription_exists'])
    const portal = stripe.portalSessions.get(again.body.portalUrl.split('/').at(-1))!
    expect(portal).toMatchObject({ customer: session.customer, returnUrl: 'https://shop.test/no' })
    expect(stripe.sessions.size).toBe(sessionsBefore)

    sub.status = 'canceled'
    await webhook('customer.subscription.deleted', stripe.subscriptionObject(sub))
    const later = await checkout(gus.token)
    expect(later.status).toBe(200)
    expect(stripe.sessions.get(later.body.url.split('/').at(-1))!.trialDays).toBe(0)
  })
})

describe('bindings that stick', () => {
  test('a subscription made outside Checkout, bound by metadata.customerId, records its Stripe customer: its invoices are kept and the portal opens on it', async () => {
    const hal = await customerOf(h, org, owner)
    const customersBefore = stripe.requests.filter((r) => r === 'POST /v1/customers').length
    const sub = stripe.addSubscription({ priceId: 'price_pro_month', metadata: { customerId: hal.customerId } })
    expect((await webhook('customer.subscription.created', stripe.subscriptionObject(sub))).status).toBe(200)
    expect((await h.call('GET', '/billing/me', { token: hal.token })).body).toMatchObject({ plan: 'pro', source: 'stripe', subscription: { id: sub.id } })
    const invoice = stripe.addInvoice(sub.customer)
    expect((await webhook('invoice.paid', { id: invoice.id, object: 'invoice' })).status).toBe(200)
    expect((await h.call('GET', '/billing/me/invoices', { token: hal.token })).body.items.map((i: { id: string }) => i.id)).toEqual([invoice.id])
    const portal = await h.call('POST', '/billing/portal', { token: hal.token, body: { returnUrl: 'https://shop.test/account' } })
    expect(stripe.portalSessions.get(portal.body.url.split('/').at(-1))!.customer).toBe(sub.customer)
    expect(stripe.requests.filter((r) => r === 'POST /v1/customers').length).toBe(customersBefore)
  })

  test('a price no plan sells puts the customer on the default plan, never unlimited, and the admins are told once', async () => {
    const ivy = await customerOf(h, org, owner)
    const sub = stripe.addSubscription({ priceId: 'price_nobody_sells', metadata: { customerId: ivy.customerId, plan: 'gold' } })
    // Stripe's webhook may come when no request has named the ecosystem for a while: the alert
    // finds the admins inside the webhook's transaction (on PGlite a read beside it would wait forever).
    ;(h.app.services.registry as unknown as { ecosystemCache: ReplicaCache<unknown> }).ecosystemCache.forget(org.organization.id)
    await webhook('customer.subscription.created', stripe.subscriptionObject(sub))
    const me = (await h.call('GET', '/billing/me', { token: ivy.token })).body
    expect(me).toMatchObject({ plan: 'free', source: 'default', subscription: { id: sub.id, plan: null, status: 'active' } })
    expect(me.entitlements.find((e: { feature: string }) => e.feature === 'chat.messages').limit).toBe(10)
    await webhook('customer.subscription.updated', stripe.subscriptionObject(sub))
    const told = (await h.call('GET', '/site/feed?source=billing', as())).body.items.filter((i: { entityId: string }) => i.entityId === sub.id)
    expect(told.map((i: { action: string; summary: string }) => [i.action, i.summary])).toEqual([
      ['unmatched', `Stripe subscription ${sub.id} sells price_nobody_sells, which no plan has`],
    ])
    const notes = (await h.call('GET', '/notifications', as())).body.items.map((n: { subject: string }) => n.subject)
    expect(notes).toContain(`Stripe subscription ${sub.id} sells price_nobody_sells, which no plan has`)
  })

  test('the default plan cannot be deleted while it is the default', async () => {
    const res = await h.call('DELETE', '/billing/plans/free', as())
    expect([res.status, res.body.error.code]).toEqual([409, 'default_plan'])
    expect((await h.call('GET', '/billing/plans/free', as())).body.isDefault).toBe(true)
  })

  test('an object Stripe answers 404 for is acknowledged with a log line, not 502 for Stripe to retry for days', async () => {
    for (const [type, object] of [
      ['customer.subscription.updated', { id: 'sub_gone', object: 'subscription' }],
      ['invoice.paid', { id: 'in_gone', object: 'invoice' }],
      ['checkout.session.completed', { id: 'cs_gone', object: 'checkout.session' }],
    ] as const) {
      const res = await webhook(type, object)
      expect([type, res.status, res.body]).toEqual([type, 200, { received: true, duplicate: false }])
    }
    expect(h.logLines.filter((l) => l.includes('no longer has')).map((l) => JSON.parse(l).objectId)).toEqual(['sub_gone', 'in_gone', 'cs_gone'])
    // An outage is not a 404: Stripe is told to try again.
    stripe.outage(true)
    try {
      const down = await webhook('customer.subscription.updated', { id: 'sub_any', object: 'subscription' })
      expect([down.status, down.body.error.code]).toEqual([502, 'provider_error'])
    } finally {
      stripe.outage(false)
    }
  })
})
