import type Stripe from 'stripe'
import { billingError } from './errors'

/** The parts of a Stripe subscription the mirror keeps (current periods live on its items since API 2025-03). */
export interface SubscriptionFacts {
  id: string
  stripeCustomerId: string
  status: string
  cancelAtPeriodEnd: boolean
  currentPeriodStart: Date | null
  currentPeriodEnd: Date | null
  trialEnd: Date | null
  createdAt: Date
  priceIds: string[]
  metadata: Record<string, string>
}

export interface InvoiceFacts {
  id: string
  stripeCustomerId: string
  number: string | null
  status: string
  total: number
  currency: string
  hostedInvoiceUrl: string | null
  periodStart: Date | null
  periodEnd: Date | null
  createdAt: Date
}

const fromUnix = (s: number | null | undefined) => (typeof s === 'number' ? new Date(s * 1000) : null)
const idOf = (x: string | { id: string } | null | undefined) => (typeof x === 'string' ? x : (x?.id ?? ''))

/**
 * The Stripe calls billing makes, with the ecosystem's own secret key, through the official SDK
 * (pointed at STRIPE_API_URL). Failures are 502 `provider_error`, except that re-fetching an object
 * Stripe answers 404 for (deleted, or of another account or mode) gives null: retrying would never
 * find it. Nothing here writes the database.
 */
export class StripeGateway {
  private readonly clients = new Map<string, Stripe>()
  private readonly endpoint: { protocol: 'http' | 'https'; host: string; port: number }

  constructor(apiUrl: string) {
    const url = new URL(apiUrl)
    this.endpoint = {
      protocol: url.protocol === 'http:' ? 'http' : 'https',
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    }
  }

  /** The SDK is loaded at the first call: an instance that never bills does not carry it. */
  private async client(secretKey: string): Promise<Stripe> {
    let client = this.clients.get(secretKey)
    if (!client) {
      const { default: StripeSdk } = await import('stripe')
      client = new StripeSdk(secretKey, { ...this.endpoint, maxNetworkRetries: 2, timeout: 20_000 })
      if (this.clients.size > 1000) this.clients.clear()
      this.clients.set(secretKey, client)
    }
    return client
  }

  /** The Stripe customer of an Ecobase customer: the idempotency key makes a retry, or a race, yield the same one. */
  async createCustomer(secretKey: string, input: { ecosystemId: string; customerId: string; email: string | null; name: string | null }): Promise<string> {
    return this.call(async () => {
      const customer = await (await this.client(secretKey)).customers.create(
        {
          ...(input.email ? { email: input.email } : {}),
          ...(input.name ? { name: input.name } : {}),
          metadata: { ecosystemId: input.ecosystemId, customerId: input.customerId },
        },
        { idempotencyKey: `ecobase-customer-${input.ecosystemId}-${input.customerId}` },
      )
      return customer.id
    })
  }

  async checkout(
    secretKey: string,
    input: { stripeCustomerId: string; priceId: string; trialDays: number; successUrl: string; cancelUrl: string; metadata: Record<string, string> },
  ): Promise<string> {
    return this.call(async () => {
      const session = await (await this.client(secretKey)).checkout.sessions.create({
        mode: 'subscription',
        customer: input.stripeCustomerId,
        client_reference_id: input.metadata.customerId,
        line_items: [{ price: input.priceId, quantity: 1 }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: input.metadata,
        subscription_data: { metadata: input.metadata, ...(input.trialDays > 0 ? { trial_period_days: input.trialDays } : {}) },
      })
      if (!session.url) throw new Error('Stripe answered a Checkout session without a url')
      return session.url
    })
  }

  async portal(secretKey: string, stripeCustomerId: string, returnUrl: string): Promise<string> {
    return this.call(
      async () => (await (await this.client(secretKey)).billingPortal.sessions.create({ customer: stripeCustomerId, return_url: returnUrl })).url,
    )
  }

  /**
   * One usage report as a Stripe meter event (`billing.meterEvents.create`), `identifier` making a
   * repeat count once. `sent`; or `refused` with Stripe's message when it answered 4xx (a bad
   * event: sending it again cannot help); an outage or a network failure throws 502.
   */
  async meterEvent(
    secretKey: string,
    input: { eventName: string; stripeCustomerId: string; value: number; identifier: string; timestamp: Date },
  ): Promise<{ sent: true } | { refused: string }> {
    try {
      await (await this.client(secretKey)).billing.meterEvents.create({
        event_name: input.eventName,
        payload: { stripe_customer_id: input.stripeCustomerId, value: String(input.value) },
        identifier: input.identifier,
        timestamp: Math.floor(input.timestamp.getTime() / 1000),
      })
      return { sent: true }
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode
      if (status !== undefined && status >= 400 && status < 500 && status !== 429 && status !== 401) return { refused: (err as Error).message.slice(0, 500) }
      throw billingError(502, 'provider_error', `Stripe: ${(err as Error).message}`)
    }
  }

  /** Verifies a webhook body with the async verifier (the synchronous one fails on Bun); null when it does not verify. */
  async verify(secretKey: string, webhookSecret: string, payload: string, signature: string): Promise<Stripe.Event | null> {
    try {
      return await (await this.client(secretKey)).webhooks.constructEventAsync(payload, signature, webhookSecret)
    } catch {
      return null
    }
  }

  async subscription(secretKey: string, id: string): Promise<SubscriptionFacts | null> {
    return this.fetch(async () => {
      const s = await (await this.client(secretKey)).subscriptions.retrieve(id)
      const items = s.items?.data ?? []
      const top = s as unknown as { current_period_start?: number; current_period_end?: number }
      return {
        id: s.id,
        stripeCustomerId: idOf(s.customer),
        status: s.status,
        cancelAtPeriodEnd: s.cancel_at_period_end,
        currentPeriodStart: fromUnix(items[0]?.current_period_start ?? top.current_period_start),
        currentPeriodEnd: fromUnix(items[0]?.current_period_end ?? top.current_period_end),
        trialEnd: fromUnix(s.trial_end),
        createdAt: fromUnix(s.created) ?? new Date(),
        priceIds: items.map((i) => i.price?.id).filter((p): p is string => Boolean(p)),
        metadata: (s.metadata ?? {}) as Record<string, string>,
      }
    })
  }

  async invoice(secretKey: string, id: string): Promise<InvoiceFacts | null> {
    return this.fetch(async () => {
      const i = await (await this.client(secretKey)).invoices.retrieve(id)
      return {
        id: i.id!,
        stripeCustomerId: idOf(i.customer as string | { id: string } | null),
        number: i.number ?? null,
        status: i.status ?? 'draft',
        total: i.total,
        currency: i.currency,
        hostedInvoiceUrl: i.hosted_invoice_url ?? null,
        periodStart: fromUnix(i.period_start),
        periodEnd: fromUnix(i.period_end),
        createdAt: fromUnix(i.created) ?? new Date(),
      }
    })
  }

  /** The subscription a completed Checkout session made, if any; null when the session is gone. */
  async sessionSubscription(secretKey: string, sessionId: string): Promise<{ subscription: string | null } | null> {
    return this.fetch(async () => {
      const session = await (await this.client(secretKey)).checkout.sessions.retrieve(sessionId)
      return { subscription: session.subscription ? idOf(session.subscription as string | { id: string }) : null }
    })
  }

  /** A re-fetch: null when Stripe answers 404 (`resource_missing`). */
  private async fetch<T>(fn: () => Promise<T>): Promise<T | null> {
    try {
      return await fn()
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404) return null
      throw billingError(502, 'provider_error', `Stripe: ${(err as Error).message}`)
    }
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (err) {
      throw billingError(502, 'provider_error', `Stripe: ${(err as Error).message}`)
    }
  }
}
