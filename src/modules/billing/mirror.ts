import { and, eq } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Db } from '../../platform/db'
import type { EventBus } from '../../platform/events'
import { isUuid } from '../../platform/params'
import { isoOrNull } from '../../platform/crud/model'
import { customerDirectory } from '../customer/directory'
import type { Entitlements } from './entitlements'
import { entitlementsUpdated, subscriptionUnmatched, subscriptionUpdated } from './events'
import { invoices, plans, stripeCustomers, subscriptions } from './schema'
import type { InvoiceFacts, SubscriptionFacts } from './stripe'

/**
 * The local mirror of an ecosystem's Stripe subscriptions and invoices, written from what Stripe
 * answers now (never from the order its events arrive in), and every write that may change which
 * plan is in force for a customer.
 */
export class BillingMirror {
  constructor(
    private readonly deps: Pick<Deps, 'now'>,
    private readonly entitlements: Entitlements,
    private readonly events: Pick<EventBus, 'emit'>,
  ) {}

  /**
   * Writes Stripe's subscription over the mirror. One bound by its metadata (made outside Checkout)
   * records its Stripe customer, so that customer's invoices are kept and the portal opens on it.
   * Its plan is the one selling its price, else the existing plan its metadata names; else none,
   * so the default plan applies, and the admins are told (`billing.subscription.unmatched`).
   */
  async subscription(tx: Db, ecosystemId: string, s: SubscriptionFacts): Promise<void> {
    const customerId = await this.customerOf(tx, ecosystemId, s.stripeCustomerId, s.metadata.customerId)
    if (!customerId) return
    await tx.insert(stripeCustomers).values({ ecosystemId, customerId, stripeCustomerId: s.stripeCustomerId }).onConflictDoNothing()
    const priced = await tx.select({ key: plans.key, prices: plans.prices }).from(plans).where(eq(plans.ecosystemId, ecosystemId))
    const named = s.metadata.plan && priced.some((p) => p.key === s.metadata.plan) ? s.metadata.plan : null
    const plan = priced.find((p) => p.prices.some((price) => price.stripePriceId && s.priceIds.includes(price.stripePriceId)))?.key ?? named
    const [before] = await tx.select({ plan: subscriptions.plan }).from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, s.id))
    const values = {
      ecosystemId,
      customerId,
      stripeCustomerId: s.stripeCustomerId,
      plan,
      status: s.status,
      currentPeriodStart: s.currentPeriodStart,
      currentPeriodEnd: s.currentPeriodEnd,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      trialEnd: s.trialEnd,
      createdAt: s.createdAt,
      updatedAt: this.deps.now(),
    }
    await this.restanding(tx, ecosystemId, customerId, () =>
      tx
        .insert(subscriptions)
        .values({ stripeSubscriptionId: s.id, ...values })
        .onConflictDoUpdate({ target: subscriptions.stripeSubscriptionId, set: values }),
    )
    await this.events.emit(tx, subscriptionUpdated, ecosystemId, {
      customerId,
      subscriptionId: s.id,
      plan,
      status: s.status,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      currentPeriodEnd: isoOrNull(s.currentPeriodEnd),
    })
    // Told once, when the subscription starts selling an unknown price.
    if (plan === null && (!before || before.plan !== null)) {
      await this.events.emit(tx, subscriptionUnmatched, ecosystemId, { customerId, subscriptionId: s.id, priceIds: s.priceIds, status: s.status })
    }
  }

  async invoice(tx: Db, ecosystemId: string, i: InvoiceFacts): Promise<void> {
    const customerId = await this.customerOf(tx, ecosystemId, i.stripeCustomerId)
    if (!customerId) return
    const values = {
      ecosystemId,
      customerId,
      number: i.number,
      status: i.status,
      total: i.total,
      currency: i.currency,
      hostedInvoiceUrl: i.hostedInvoiceUrl,
      periodStart: i.periodStart,
      periodEnd: i.periodEnd,
      createdAt: i.createdAt,
    }
    await tx
      .insert(invoices)
      .values({ stripeInvoiceId: i.id, ...values })
      .onConflictDoUpdate({ target: invoices.stripeInvoiceId, set: values })
  }

  /** The Ecobase customer of a Stripe customer: by the mapping Checkout made, else by a subscription bound to it, else by the metadata it carries. */
  private async customerOf(tx: Db, ecosystemId: string, stripeCustomerId: string, fromMetadata?: string): Promise<string | null> {
    const [mapped] = await tx
      .select({ id: stripeCustomers.customerId })
      .from(stripeCustomers)
      .where(and(eq(stripeCustomers.ecosystemId, ecosystemId), eq(stripeCustomers.stripeCustomerId, stripeCustomerId)))
    if (mapped) return mapped.id
    const [bound] = await tx
      .select({ id: subscriptions.customerId })
      .from(subscriptions)
      .where(and(eq(subscriptions.ecosystemId, ecosystemId), eq(subscriptions.stripeCustomerId, stripeCustomerId)))
      .limit(1)
    if (bound) return bound.id
    if (!fromMetadata || !isUuid(fromMetadata)) return null
    return (await customerDirectory.existing(tx, ecosystemId, [fromMetadata])).has(fromMetadata) ? fromMetadata : null
  }

  /**
   * Runs a write that may change which plan is in force for a customer, in `tx`: the standing is
   * read before and after, and a change is announced (`billing.entitlements.updated`) and clears
   * the cached standings of the ecosystem on every replica.
   */
  async restanding(tx: Db, ecosystemId: string, customerId: string, write: () => Promise<unknown>): Promise<void> {
    const before = await this.entitlements.standing(ecosystemId, customerId, { db: tx, fresh: true })
    await write()
    const after = await this.entitlements.standing(ecosystemId, customerId, { db: tx, fresh: true })
    await this.entitlements.changed(tx, ecosystemId)
    if (before.plan !== after.plan || before.source !== after.source) {
      await this.events.emit(tx, entitlementsUpdated, ecosystemId, { customerId, plan: after.plan, source: after.source })
    }
  }
}
