import Stripe from 'stripe'

export interface FakeSubscription {
  id: string
  customer: string
  status: string
  priceId: string
  metadata: Record<string, string>
  cancel_at_period_end: boolean
  trial_end: number | null
  current_period_start: number
  current_period_end: number
  created: number
}

export interface FakeInvoice {
  id: string
  customer: string
  number: string
  status: string
  total: number
  currency: string
  hosted_invoice_url: string
  period_start: number
  period_end: number
  created: number
}

/**
 * A local HTTP server shaped like the parts of Stripe's API billing calls (form bodies, Bearer
 * secret key, JSON objects and Stripe's error body): customers (honouring Idempotency-Key),
 * Checkout sessions, portal sessions, subscriptions, invoices, and billing meter events (counted
 * once per identifier, as Stripe does). The test drives the state
 * (`completeCheckout`, `subscriptions`, `invoices`) and signs webhook bodies with the official
 * SDK's `generateTestHeaderString`, as Stripe would sign them.
 */
export function startFakeStripe(secretKey: string) {
  const customers = new Map<string, { id: string; email: string | null; metadata: Record<string, string> }>()
  const idempotent = new Map<string, string>()
  const sessions = new Map<
    string,
    {
      id: string
      customer: string
      price: string
      metadata: Record<string, string>
      trialDays: number
      subscription: string | null
      url: string
      successUrl: string
      cancelUrl: string
    }
  >()
  const portalSessions = new Map<string, { id: string; customer: string; returnUrl: string; url: string }>()
  const subscriptions = new Map<string, FakeSubscription>()
  const invoices = new Map<string, FakeInvoice>()
  const requests: string[] = []
  /** Meter events as Stripe counts them: one per identifier (a repeat within its window is ignored). */
  const meterEvents = new Map<string, { identifier: string; eventName: string; stripeCustomerId: string; value: number; timestamp: number; received: number }>()
  /** `hang`: a meter event is counted, then never answered (the caller dies waiting, as in a crash mid-send). */
  const meter = { mode: 'accept' as 'accept' | 'hang' | 'refuse', hung: 0 }
  let down = false
  let n = 0
  const next = (prefix: string) => `${prefix}_${(++n).toString(36).padStart(8, '0')}`
  const notFound = (what: string) =>
    Response.json({ error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } }, { status: 404 })
  const metadataOf = (form: URLSearchParams, prefix: string) => {
    const out: Record<string, string> = {}
    for (const [k, v] of form) {
      const m = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`).exec(k)
      if (m) out[m[1]!] = v
    }
    return out
  }
  const subscriptionObject = (s: FakeSubscription) => ({
    id: s.id,
    object: 'subscription',
    customer: s.customer,
    status: s.status,
    cancel_at_period_end: s.cancel_at_period_end,
    trial_end: s.trial_end,
    created: s.created,
    metadata: s.metadata,
    items: {
      object: 'list',
      data: [
        {
          id: `si_${s.id}`,
          object: 'subscription_item',
          price: { id: s.priceId, object: 'price' },
          current_period_start: s.current_period_start,
          current_period_end: s.current_period_end,
        },
      ],
    },
  })
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      requests.push(`${request.method} ${url.pathname}`)
      if (down) return Response.json({ error: { type: 'api_error', message: 'Stripe is having a bad day' } }, { status: 500 })
      if (request.headers.get('authorization') !== `Bearer ${secretKey}`) {
        return Response.json({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }, { status: 401 })
      }
      const form = new URLSearchParams(request.method === 'POST' ? await request.text() : '')
      const path = url.pathname
      if (request.method === 'POST' && path === '/v1/customers') {
        const key = request.headers.get('idempotency-key')
        const known = key ? idempotent.get(key) : undefined
        if (known) return Response.json({ id: known, object: 'customer', ...customers.get(known) })
        const customer = { id: next('cus'), email: form.get('email'), metadata: metadataOf(form, 'metadata') }
        customers.set(customer.id, customer)
        if (key) idempotent.set(key, customer.id)
        return Response.json({ ...customer, object: 'customer' })
      }
      if (request.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = next('cs_test')
        const session = {
          id,
          customer: form.get('customer') ?? '',
          price: form.get('line_items[0][price]') ?? '',
          metadata: metadataOf(form, 'subscription_data[metadata]'),
          trialDays: Number(form.get('subscription_data[trial_period_days]') ?? 0),
          subscription: null,
          url: `https://checkout.stripe.test/c/pay/${id}`,
          successUrl: form.get('success_url') ?? '',
          cancelUrl: form.get('cancel_url') ?? '',
        }
        sessions.set(id, session)
        return Response.json({ id, object: 'checkout.session', url: session.url, customer: session.customer, mode: form.get('mode'), subscription: null })
      }
      const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)
      if (request.method === 'GET' && sessionMatch) {
        const session = sessions.get(sessionMatch[1]!)
        return session
          ? Response.json({ id: session.id, object: 'checkout.session', url: session.url, customer: session.customer, subscription: session.subscription })
          : notFound('checkout session')
      }
      if (request.method === 'POST' && path === '/v1/billing_portal/sessions') {
        const id = next('bps')
        const session = {
          id,
          customer: form.get('customer') ?? '',
          returnUrl: form.get('return_url') ?? '',
          url: `https://billing.stripe.test/p/session/${id}`,
        }
        portalSessions.set(id, session)
        return Response.json({ id, object: 'billing_portal.session', customer: session.customer, return_url: session.returnUrl, url: session.url })
      }
      if (request.method === 'POST' && path === '/v1/billing/meter_events') {
        const identifier = form.get('identifier') ?? next('mev')
        if (meter.mode === 'refuse')
          return Response.json(
            { error: { type: 'invalid_request_error', code: 'timestamp_too_far_in_past', message: 'Timestamp must be within the past 35 days' } },
            { status: 400 },
          )
        const known = meterEvents.get(identifier)
        if (known) known.received++
        else
          meterEvents.set(identifier, {
            identifier,
            eventName: form.get('event_name') ?? '',
            stripeCustomerId: form.get('payload[stripe_customer_id]') ?? '',
            value: Number(form.get('payload[value]')),
            timestamp: Number(form.get('timestamp')),
            received: 1,
          })
        if (meter.mode === 'hang') {
          meter.hung++
          return new Promise<Response>(() => {})
        }
        const e = meterEvents.get(identifier)!
        return Response.json({
          object: 'billing.meter_event',
          created: now(),
          event_name: e.eventName,
          identifier,
          livemode: false,
          payload: { stripe_customer_id: e.stripeCustomerId, value: String(e.value) },
          timestamp: e.timestamp,
        })
      }
      const subMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)
      if (request.method === 'GET' && subMatch) {
        const s = subscriptions.get(subMatch[1]!)
        return s ? Response.json(subscriptionObject(s)) : notFound('subscription')
      }
      const invoiceMatch = /^\/v1\/invoices\/([^/]+)$/.exec(path)
      if (request.method === 'GET' && invoiceMatch) {
        const i = invoices.get(invoiceMatch[1]!)
        return i ? Response.json({ ...i, object: 'invoice' }) : notFound('invoice')
      }
      return notFound(path)
    },
  })
  const now = () => Math.floor(Date.now() / 1000)
  return {
    url: `http://127.0.0.1:${server.port}`,
    customers,
    sessions,
    portalSessions,
    subscriptions,
    meterEvents,
    meter,
    invoices,
    requests,
    /** A subscription made outside Ecobase's Checkout (the dashboard, another integration) on a Stripe customer of its own. */
    addSubscription(fields: Partial<FakeSubscription> & { priceId: string; metadata: Record<string, string> }): FakeSubscription {
      const customer = fields.customer ?? next('cus')
      if (!customers.has(customer)) customers.set(customer, { id: customer, email: null, metadata: {} })
      const s: FakeSubscription = {
        id: next('sub'),
        customer,
        status: 'active',
        cancel_at_period_end: false,
        trial_end: null,
        current_period_start: now(),
        current_period_end: now() + 30 * 86400,
        created: now(),
        ...fields,
      }
      subscriptions.set(s.id, s)
      return s
    },
    /** The customer paid: the session's subscription exists (trialing when the plan has a trial). */
    completeCheckout(sessionId: string): FakeSubscription {
      const session = sessions.get(sessionId)!
      const s: FakeSubscription = {
        id: next('sub'),
        customer: session.customer,
        status: session.trialDays > 0 ? 'trialing' : 'active',
        priceId: session.price,
        metadata: session.metadata,
        cancel_at_period_end: false,
        trial_end: session.trialDays > 0 ? now() + session.trialDays * 86400 : null,
        current_period_start: now(),
        current_period_end: now() + 30 * 86400,
        created: now(),
      }
      subscriptions.set(s.id, s)
      session.subscription = s.id
      return s
    },
    addInvoice(customer: string, fields: Partial<FakeInvoice> = {}): FakeInvoice {
      const invoice: FakeInvoice = {
        id: next('in'),
        customer,
        number: `INV-${n}`,
        status: 'paid',
        total: 1900,
        currency: 'usd',
        hosted_invoice_url: `https://invoice.stripe.test/i/${n}`,
        period_start: now() - 86400,
        period_end: now(),
        created: now(),
        ...fields,
      }
      invoices.set(invoice.id, invoice)
      return invoice
    },
    /** A webhook body for `type` about `object`, and its Stripe-Signature header signed with `webhookSecret`. */
    async event(webhookSecret: string, type: string, object: Record<string, unknown>, id = next('evt')) {
      const payload = JSON.stringify({
        id,
        object: 'event',
        type,
        api_version: '2026-10-28.endive',
        created: now(),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      })
      const header = await new Stripe(secretKey).webhooks.generateTestHeaderStringAsync({ payload, secret: webhookSecret })
      return { id, payload, header }
    },
    subscriptionObject,
    /** While on, every call answers 500, as Stripe does in an outage. */
    outage(on: boolean) {
      down = on
    },
    close: () => server.stop(true),
  }
}
