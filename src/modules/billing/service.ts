import type { Static } from '@sinclair/typebox'
import { requireAal2 } from '../../platform/auth'
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { openSecret, sealSecret } from '../../platform/crypto'
import { STORAGE_BYTES } from '../../platform/entitlements'
import { AppError } from '../../platform/errors'
import type { EventBus } from '../../platform/events'
import { listPage, type PageParams } from '../../platform/paging'
import { isAdmin, type Tenant } from '../../platform/tenancy'
import { isoOrNull } from '../../platform/crud/model'
import { customerDirectory } from '../customer/directory'
import { featureNotFound, Features, planOf, Plans } from './catalogue'
import { MeterReporter } from './meters'
import { BillingMirror } from './mirror'
import type { Entitlements } from './entitlements'
import { periodOf, resetsAt, type Standing } from './features'
import { billingError } from './errors'
import type { BillingSettingsUpdate, CheckoutRequest, CheckRequest, UsageBatch } from './model'
import { assignments, invoices, plans, settings, stripeCustomers, stripeEvents, subscriptions, usageCounters, usageEvents } from './schema'
import type { InvoiceFacts, StripeGateway, SubscriptionFacts } from './stripe'

/** Labels sealed billing keys so they cannot be opened as any other kind of secret. */
const PURPOSE = 'billing-settings'
type Keys = { stripeSecretKey?: string; stripeWebhookSecret?: string }

/**
 * Billing of an ecosystem's own customers: its features and plans, who is on which (a manual
 * assignment, a Stripe subscription mirrored locally, or the default plan), metered use, checks
 * with reserve, and Stripe Checkout, portal, webhooks and invoices. Entitlements are computed by
 * `Entitlements` from the mirror, never from the order Stripe's events arrive in.
 */
export class BillingService {
  readonly features: Features
  readonly plans: Plans
  readonly meters: MeterReporter
  private readonly mirror: BillingMirror

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'logger' | 'now' | 'queue' | 'secret'>,
    readonly entitlements: Entitlements,
    private readonly stripe: StripeGateway,
    private readonly events: Pick<EventBus, 'emit'>,
    /** The customer area: 404 unless the customer is one of the tenant's ecosystem. */
    private readonly customers: { get(tenant: Tenant, customerId: string): Promise<unknown> },
    /** The registry: an ecosystem by id or rdid. */
    private readonly ecosystems: { findEcosystem(idOrRdid: string): Promise<{ id: string } | null> },
  ) {
    this.features = new Features(deps, entitlements)
    this.plans = new Plans(deps, entitlements)
    this.mirror = new BillingMirror(deps, entitlements, events)
    this.meters = new MeterReporter(deps, stripe, async (ecosystemId) => (await this.stripeKeys(ecosystemId).catch(() => null))?.stripeSecretKey ?? null)
  }

  // ---- settings

  async settings(tenant: Tenant) {
    const [row] = await this.deps.db.select().from(settings).where(eq(settings.ecosystemId, tenant.ecosystemId))
    return { provider: row?.provider ?? 'manual', currency: row?.currency ?? 'usd', configKeys: row?.configKeys ?? [] }
  }

  async setSettings(tenant: Tenant, input: Static<typeof BillingSettingsUpdate>) {
    requireAal2(tenant)
    return this.deps.db.transaction(async (tx) => {
      const [before] = await tx.select().from(settings).where(eq(settings.ecosystemId, tenant.ecosystemId)).for('update')
      const keys: Keys = { ...(before?.secretsSealed ? this.open(before.secretsSealed) : {}) }
      if (input.stripeSecretKey) keys.stripeSecretKey = input.stripeSecretKey
      if (input.stripeWebhookSecret) keys.stripeWebhookSecret = input.stripeWebhookSecret
      if (input.provider === 'stripe' && (!keys.stripeSecretKey || !keys.stripeWebhookSecret)) {
        throw new AppError(400, 'validation_failed', 'body: the stripe provider needs stripeSecretKey and stripeWebhookSecret')
      }
      const currency = input.currency ?? before?.currency ?? 'usd'
      // Prices are in the ecosystem's currency: it changes only while no plan has prices in another.
      const [other] = await tx
        .select({ key: plans.key })
        .from(plans)
        .where(
          and(
            eq(plans.ecosystemId, tenant.ecosystemId),
            sql`exists (select 1 from jsonb_array_elements(${plans.prices}) p where p->>'currency' <> ${currency})`,
          ),
        )
        .limit(1)
      if (other) throw billingError(409, 'in_use', `Plan ${other.key} has prices in another currency than ${currency}: change them first`)
      const values = {
        provider: input.provider,
        currency,
        secretsSealed: Object.keys(keys).length ? sealSecret(this.deps.secret, PURPOSE, JSON.stringify(keys)) : null,
        configKeys: Object.keys(keys).sort(),
        updatedAt: this.deps.now(),
      }
      await tx
        .insert(settings)
        .values({ ecosystemId: tenant.ecosystemId, ...values })
        .onConflictDoUpdate({ target: settings.ecosystemId, set: values })
      return { provider: values.provider, currency: values.currency, configKeys: values.configKeys }
    })
  }

  /**
   * The public price list of the ecosystem named (`ecosystem`, id or rdid: anyone may read it), else
   * of the caller's (a customer's token, an account's X-Ecosystem-Id).
   */
  async catalogue(tenant: Pick<Tenant, 'ecosystemId'> | null, ecosystem: string | undefined) {
    let ecosystemId = tenant?.ecosystemId
    if (ecosystem !== undefined) {
      const found = await this.ecosystems.findEcosystem(ecosystem)
      if (!found) throw new AppError(404, 'not_found', 'No such ecosystem')
      ecosystemId = found.id
    }
    if (!ecosystemId) throw new AppError(400, 'ecosystem_required', 'Name the ecosystem: ?ecosystem=<id or rdid>, or send a customer token')
    return this.plans.catalogue(ecosystemId)
  }

  // ---- accounts

  /** A customer's billing account: its plan, why, its subscription, and every entitlement with its use. */
  async account(tenant: Tenant, customerId: string) {
    await this.customers.get(tenant, customerId)
    const standing = await this.entitlements.standing(tenant.ecosystemId, customerId)
    const now = this.deps.now()
    const entitlements = await Promise.all(
      [...standing.grants.values()].map(async (g) => {
        const used = g.feature.type === 'boolean' ? 0 : await this.entitlements.used(this.deps.db, tenant.ecosystemId, customerId, g.feature)
        const next = resetsAt(g.feature.reset, now)
        const from = next ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)) : null
        const reported = g.feature.stripeMeter
          ? await this.meters.reported(this.deps.db, tenant.ecosystemId, customerId, g.feature, from, next ? new Date(next) : null)
          : null
        return {
          feature: g.feature.key,
          type: g.feature.type,
          enabled: g.enabled,
          limit: g.limit,
          used,
          remaining: g.limit === null ? null : Math.max(0, g.limit - used),
          resetsAt: g.feature.type === 'metered' ? next : null,
          reported,
        }
      }),
    )
    return { customerId, plan: standing.plan, source: standing.source, subscription: subscriptionView(standing), entitlements }
  }

  async assign(tenant: Tenant, customerId: string, plan: string) {
    await this.customers.get(tenant, customerId)
    await this.deps.db.transaction(async (tx) => {
      await planOf(tx, tenant.ecosystemId, plan)
      await this.mirror.restanding(tx, tenant.ecosystemId, customerId, () =>
        tx
          .insert(assignments)
          .values({ ecosystemId: tenant.ecosystemId, customerId, plan })
          .onConflictDoUpdate({ target: assignments.customerId, set: { plan, assignedAt: this.deps.now() } }),
      )
    })
    return this.account(tenant, customerId)
  }

  async unassign(tenant: Tenant, customerId: string) {
    await this.customers.get(tenant, customerId)
    await this.deps.db.transaction((tx) =>
      this.mirror.restanding(tx, tenant.ecosystemId, customerId, () =>
        tx.delete(assignments).where(and(eq(assignments.ecosystemId, tenant.ecosystemId), eq(assignments.customerId, customerId))),
      ),
    )
    return this.account(tenant, customerId)
  }

  // ---- usage and checks

  /** Records usage events; a repeated idempotency key is counted once (also within one batch). */
  async usage(tenant: Tenant, batch: Static<typeof UsageBatch>) {
    const defs = new Map((await this.entitlements.features(this.deps.db, tenant.ecosystemId)).map((f) => [f.key, f]))
    batch.events.forEach((e, i) => {
      const def = defs.get(e.feature)
      if (!def) throw billingError(400, 'feature_not_found', `events.${i}.feature: no feature ${e.feature}`)
      if (def.key === STORAGE_BYTES) throw billingError(400, 'builtin_feature', `events.${i}.feature: ${STORAGE_BYTES} is measured by storage itself`)
      if (def.type === 'boolean') throw new AppError(400, 'validation_failed', `events.${i}.feature: ${e.feature} is a boolean feature; it has no use`)
      if (e.value < 0 && def.type === 'metered' && !def.allowNegative)
        throw new AppError(400, 'validation_failed', `events.${i}.value: ${e.feature} takes no negative usage (its allowNegative is false)`)
    })
    const ids = [...new Set(batch.events.map((e) => e.customerId))]
    const known = await customerDirectory.existing(this.deps.db, tenant.ecosystemId, ids)
    const missing = ids.find((id) => !known.has(id))
    if (missing) throw new AppError(404, 'not_found', `No customer ${missing} in this ecosystem`)
    const now = this.deps.now()
    return this.deps.db.transaction(async (tx) => {
      const rows = batch.events.map((e) => ({
        ecosystemId: tenant.ecosystemId,
        idempotencyKey: e.idempotencyKey,
        customerId: e.customerId,
        feature: e.feature,
        value: e.value,
        at: e.at ? new Date(e.at) : now,
      }))
      const inserted = await tx.insert(usageEvents).values(rows).onConflictDoNothing().returning()
      // One counter update per (customer, feature, period), in a fixed order so concurrent batches do not deadlock.
      const sums = new Map<string, { customerId: string; feature: string; period: string; value: number }>()
      for (const e of inserted) {
        const period = periodOf(defs.get(e.feature)!.reset, e.at)
        const key = `${e.customerId} ${e.feature} ${period}`
        const sum = sums.get(key) ?? { customerId: e.customerId, feature: e.feature, period, value: 0 }
        sums.set(key, { ...sum, value: sum.value + e.value })
      }
      await this.meters.record(tx, tenant.ecosystemId, inserted, defs)
      for (const key of [...sums.keys()].sort()) {
        const s = sums.get(key)!
        await tx
          .insert(usageCounters)
          .values({ ecosystemId: tenant.ecosystemId, ...s, used: Math.max(0, s.value) })
          // Given-back use never takes a counter below 0 (what it gives back was never used).
          .onConflictDoUpdate({
            target: [usageCounters.customerId, usageCounters.feature, usageCounters.period],
            set: { used: sql`greatest(0, ${usageCounters.used} + ${s.value})` },
          })
      }
      return { accepted: inserted.length, duplicates: rows.length - inserted.length }
    })
  }

  /** "May this customer do X?": customers and members ask for themselves; admins and owners for any customer (default: their own record). */
  async check(tenant: Tenant, body: Static<typeof CheckRequest>) {
    const customerId = body.customerId ?? tenant.customerId
    if (customerId !== tenant.customerId && !isAdmin(tenant)) throw new AppError(403, 'forbidden', 'Only ecosystem admins check other customers')
    await this.customers.get(tenant, customerId)
    if (body.reserve && body.feature === STORAGE_BYTES) throw billingError(400, 'builtin_feature', `${STORAGE_BYTES} is reserved by uploads themselves`)
    const defs = await this.entitlements.features(this.deps.db, tenant.ecosystemId)
    if (!defs.some((f) => f.key === body.feature)) throw featureNotFound(body.feature)
    return this.entitlements.check({ ecosystemId: tenant.ecosystemId, customerId, feature: body.feature, amount: body.amount ?? 1, reserve: body.reserve })
  }

  async invoices(tenant: Tenant, customerId: string, page: PageParams) {
    await this.customers.get(tenant, customerId)
    const where = and(eq(invoices.ecosystemId, tenant.ecosystemId), eq(invoices.customerId, customerId))
    return listPage(this.deps.db, invoices, where, [desc(invoices.createdAt), desc(invoices.stripeInvoiceId)], page, (i) => ({
      id: i.stripeInvoiceId,
      number: i.number,
      status: i.status,
      total: i.total,
      currency: i.currency,
      hostedInvoiceUrl: i.hostedInvoiceUrl,
      periodStart: isoOrNull(i.periodStart),
      periodEnd: isoOrNull(i.periodEnd),
      createdAt: i.createdAt.toISOString(),
    }))
  }

  // ---- Stripe

  /**
   * A Checkout session for the calling customer: its Stripe customer is made first (once), then the
   * session. A customer whose subscription is still live changes it in the portal instead (409
   * `subscription_exists` with the portal's address), so nobody pays twice; the plan's trial is
   * offered once per customer (not to one who had a trial).
   */
  async checkout(tenant: Tenant, input: Static<typeof CheckoutRequest>) {
    const keys = await this.stripeKeys(tenant.ecosystemId)
    const plan = await planOf(this.deps.db, tenant.ecosystemId, input.plan)
    const price = plan.prices.find((p) => p.interval === input.interval && p.stripePriceId)
    if (!price) throw billingError(409, 'no_price', `Plan ${plan.key} has no Stripe price for a ${input.interval}ly interval`)
    const mine = and(eq(subscriptions.ecosystemId, tenant.ecosystemId), eq(subscriptions.customerId, tenant.customerId))
    const [live] = await this.deps.db
      .select({ id: subscriptions.stripeSubscriptionId, stripeCustomerId: subscriptions.stripeCustomerId })
      .from(subscriptions)
      .where(and(mine, sql`${subscriptions.status} not in ('canceled', 'incomplete_expired')`))
      .orderBy(desc(subscriptions.createdAt))
      .limit(1)
    if (live) {
      const portalUrl = await this.stripe.portal(
        keys.stripeSecretKey,
        live.stripeCustomerId ?? (await this.stripeCustomer(keys.stripeSecretKey, tenant)),
        input.cancelUrl,
      )
      throw billingError(409, 'subscription_exists', `Subscription ${live.id} is live: change or cancel it in the portal`, { portalUrl })
    }
    const [trialed] = await this.deps.db
      .select({ id: subscriptions.stripeSubscriptionId })
      .from(subscriptions)
      .where(and(mine, isNotNull(subscriptions.trialEnd)))
      .limit(1)
    const stripeCustomerId = await this.stripeCustomer(keys.stripeSecretKey, tenant)
    const url = await this.stripe.checkout(keys.stripeSecretKey, {
      stripeCustomerId,
      priceId: price.stripePriceId!,
      trialDays: trialed ? 0 : plan.trialDays,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      metadata: { ecosystemId: tenant.ecosystemId, customerId: tenant.customerId, plan: plan.key },
    })
    return { url }
  }

  /** The portal on the Stripe customer of the customer's subscription (one made outside Checkout included), else its own. */
  async portal(tenant: Tenant, returnUrl: string) {
    const keys = await this.stripeKeys(tenant.ecosystemId)
    const subscription = await this.entitlements.subscriptionOf(this.deps.db, tenant.ecosystemId, tenant.customerId)
    const stripeCustomerId = subscription?.stripeCustomerId ?? (await this.stripeCustomer(keys.stripeSecretKey, tenant))
    return { url: await this.stripe.portal(keys.stripeSecretKey, stripeCustomerId, returnUrl) }
  }

  /**
   * A Stripe webhook: verified with the ecosystem's secret (400 `invalid_signature`), answered at
   * once for an event id already handled; for subscriptions, Checkout sessions and invoices the
   * object is fetched from Stripe as it is now and the mirror overwritten, so order and repeats
   * do not matter. The event id is recorded with the mirror, after Stripe was asked. An object
   * Stripe answers 404 for is acknowledged with a log line: asking again would never find it.
   */
  async webhook(ecosystemId: string, payload: string, signature: string) {
    const keys = await this.stripeKeys(ecosystemId)
    const event = await this.stripe.verify(keys.stripeSecretKey, keys.stripeWebhookSecret, payload, signature)
    if (!event) throw billingError(400, 'invalid_signature', 'The Stripe-Signature header does not verify')
    const [seen] = await this.deps.db
      .select({ id: stripeEvents.eventId })
      .from(stripeEvents)
      .where(and(eq(stripeEvents.ecosystemId, ecosystemId), eq(stripeEvents.eventId, event.id)))
    if (seen) return { received: true, duplicate: true }
    const object = event.data.object as { id?: string; object?: string; subscription?: string | { id: string } | null }
    let subscription: SubscriptionFacts | null = null
    let invoice: InvoiceFacts | null = null
    let gone: string | null = null
    if (object.object === 'subscription' && object.id) {
      subscription = await this.stripe.subscription(keys.stripeSecretKey, object.id)
      if (!subscription) gone = object.id
    } else if (object.object === 'checkout.session' && object.id) {
      const session = await this.stripe.sessionSubscription(keys.stripeSecretKey, object.id)
      if (!session) gone = object.id
      else if (session.subscription) {
        subscription = await this.stripe.subscription(keys.stripeSecretKey, session.subscription)
        if (!subscription) gone = session.subscription
      }
    } else if (object.object === 'invoice' && object.id) {
      invoice = await this.stripe.invoice(keys.stripeSecretKey, object.id)
      if (!invoice) gone = object.id
    }
    if (gone)
      this.deps.logger.warn('billing: a Stripe webhook names an object Stripe no longer has; acknowledged', {
        ecosystemId,
        eventId: event.id,
        eventType: event.type,
        objectId: gone,
      })
    await this.deps.db.transaction(async (tx) => {
      const [fresh] = await tx.insert(stripeEvents).values({ ecosystemId, eventId: event.id }).onConflictDoNothing().returning({ id: stripeEvents.eventId })
      if (!fresh) return
      if (subscription) await this.mirror.subscription(tx, ecosystemId, subscription)
      if (invoice) await this.mirror.invoice(tx, ecosystemId, invoice)
    })
    return { received: true, duplicate: false }
  }

  /** The caller's Stripe customer, made on first need: the idempotency key and the unique mapping keep it one. */
  private async stripeCustomer(secretKey: string, tenant: Tenant): Promise<string> {
    const where = and(eq(stripeCustomers.ecosystemId, tenant.ecosystemId), eq(stripeCustomers.customerId, tenant.customerId))
    const [known] = await this.deps.db.select({ id: stripeCustomers.stripeCustomerId }).from(stripeCustomers).where(where)
    if (known) return known.id
    const who = await customerDirectory.contact(this.deps.db, tenant.ecosystemId, tenant.customerId)
    const id = await this.stripe.createCustomer(secretKey, {
      ecosystemId: tenant.ecosystemId,
      customerId: tenant.customerId,
      email: who?.email ?? null,
      name: who?.name ?? null,
    })
    await this.deps.db
      .insert(stripeCustomers)
      .values({ ecosystemId: tenant.ecosystemId, customerId: tenant.customerId, stripeCustomerId: id })
      .onConflictDoNothing()
    const [stored] = await this.deps.db.select({ id: stripeCustomers.stripeCustomerId }).from(stripeCustomers).where(where)
    return stored!.id
  }

  private async stripeKeys(ecosystemId: string): Promise<Required<Keys>> {
    const [row] = await this.deps.db.select().from(settings).where(eq(settings.ecosystemId, ecosystemId))
    const keys = row?.provider === 'stripe' && row.secretsSealed ? this.open(row.secretsSealed) : {}
    if (!keys.stripeSecretKey || !keys.stripeWebhookSecret) throw billingError(409, 'billing_not_configured', 'This ecosystem does not bill through Stripe')
    return keys as Required<Keys>
  }

  private open(sealed: string): Keys {
    return JSON.parse(openSecret(this.deps.secret, PURPOSE, sealed)) as Keys
  }
}

function subscriptionView(standing: Standing) {
  const s = standing.subscription
  if (!s) return null
  return {
    id: s.stripeSubscriptionId,
    plan: s.plan,
    status: s.status as never,
    currentPeriodStart: isoOrNull(s.currentPeriodStart),
    currentPeriodEnd: isoOrNull(s.currentPeriodEnd),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    trialEnd: isoOrNull(s.trialEnd),
  }
}
