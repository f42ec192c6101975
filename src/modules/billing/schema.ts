import { sql } from 'drizzle-orm'
import { bigint, boolean, index, integer, jsonb, pgSchema, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'
import { tenantColumns } from '../customer/schema'

export const billingSchema = pgSchema('billing')
const { ecosystemId, customerId } = tenantColumns

export interface PlanPrice {
  amount: number
  currency: string
  interval: 'month' | 'year'
  stripePriceId?: string
}
export interface PlanEntitlement {
  feature: string
  enabled?: boolean
  limit?: number | null
  overage?: 'block' | 'allow'
}

/** An ecosystem's billing provider; the Stripe keys sealed with the server key, their names kept. */
export const settings = billingSchema.table('settings', {
  ecosystemId: ecosystemId().primaryKey(),
  provider: text('provider').$type<'manual' | 'stripe'>().notNull().default('manual'),
  currency: text('currency').notNull().default('usd'),
  secretsSealed: text('secrets_sealed'),
  configKeys: jsonb('config_keys').$type<string[]>().notNull().default([]),
  updatedAt: at('updated_at').notNull().defaultNow(),
})

/** What plans can grant, besides the two built in (`storage.bytes`, `chat.messages`). */
export const features = billingSchema.table(
  'features',
  {
    ecosystemId: ecosystemId(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    type: text('type').$type<'boolean' | 'limit' | 'metered'>().notNull(),
    unit: text('unit').notNull().default(''),
    reset: text('reset').$type<'month' | 'never'>().notNull(),
    /** A metered feature whose use may be given back (credits refunded): negative usage is accepted. */
    allowNegative: boolean('allow_negative').notNull().default(false),
    /** A metered feature's Stripe meter (its `event_name`): accepted usage is sent to it as meter events. */
    stripeMeter: text('stripe_meter'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ecosystemId, t.key] })],
)

export const plans = billingSchema.table(
  'plans',
  {
    ecosystemId: ecosystemId(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    /** Listed in the public price list (GET /billing/catalogue). */
    public: boolean('public').notNull().default(false),
    trialDays: integer('trial_days').notNull().default(0),
    prices: jsonb('prices').$type<PlanPrice[]>().notNull().default([]),
    entitlements: jsonb('entitlements').$type<PlanEntitlement[]>().notNull().default([]),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ecosystemId, t.key] })],
)

/** A plan an admin gave a customer by hand: it wins over any subscription until removed. */
export const assignments = billingSchema.table('assignments', {
  customerId: customerId().primaryKey(),
  ecosystemId: ecosystemId(),
  plan: text('plan').notNull(),
  assignedAt: at('assigned_at').notNull().defaultNow(),
})

/** The Stripe customer of each Ecobase customer (one each, made before the first Checkout). */
export const stripeCustomers = billingSchema.table(
  'stripe_customers',
  {
    customerId: customerId().primaryKey(),
    ecosystemId: ecosystemId(),
    stripeCustomerId: text('stripe_customer_id').notNull(),
  },
  (t) => [uniqueIndex('stripe_customers_stripe_uq').on(t.ecosystemId, t.stripeCustomerId)],
)

/** Stripe subscriptions as Stripe last said they are (re-fetched on every webhook, so order does not matter). */
export const subscriptions = billingSchema.table(
  'subscriptions',
  {
    stripeSubscriptionId: text('stripe_subscription_id').primaryKey(),
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    /** The subscription's Stripe customer: its invoices and the portal follow it (null: mirrored before it was kept). */
    stripeCustomerId: text('stripe_customer_id'),
    plan: text('plan'),
    status: text('status').notNull(),
    currentPeriodStart: at('current_period_start'),
    currentPeriodEnd: at('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    trialEnd: at('trial_end'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_customer_idx').on(t.ecosystemId, t.customerId),
    index('subscriptions_stripe_customer_idx').on(t.ecosystemId, t.stripeCustomerId),
  ],
)

export const invoices = billingSchema.table(
  'invoices',
  {
    stripeInvoiceId: text('stripe_invoice_id').primaryKey(),
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    number: text('number'),
    status: text('status').notNull(),
    total: bigint('total', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    hostedInvoiceUrl: text('hosted_invoice_url'),
    periodStart: at('period_start'),
    periodEnd: at('period_end'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('invoices_customer_idx').on(t.ecosystemId, t.customerId, t.createdAt)],
)

/** Stripe events already handled, by id: a replay is answered without work. */
export const stripeEvents = billingSchema.table(
  'stripe_events',
  {
    eventId: text('event_id').notNull(),
    ecosystemId: ecosystemId(),
    receivedAt: at('received_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ecosystemId, t.eventId] })],
)

/** Usage events as reported, once per idempotency key. */
export const usageEvents = billingSchema.table(
  'usage_events',
  {
    ecosystemId: ecosystemId(),
    idempotencyKey: text('idempotency_key').notNull(),
    customerId: customerId(),
    feature: text('feature').notNull(),
    value: bigint('value', { mode: 'number' }).notNull(),
    at: at('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ecosystemId, t.idempotencyKey] })],
)

/**
 * Usage on its way to a Stripe meter: written in the transaction that accepts the usage (an
 * outbox), sent by a queued job with the idempotency key as the meter event's `identifier`, then
 * marked sent. A crash between Stripe's answer and the mark sends it again, and Stripe counts an
 * identifier once; nothing accepted is lost. `failed`: Stripe refused it (not retried).
 */
export const meterOutbox = billingSchema.table(
  'meter_outbox',
  {
    ecosystemId: ecosystemId(),
    idempotencyKey: text('idempotency_key').notNull(),
    customerId: customerId(),
    feature: text('feature').notNull(),
    meter: text('meter').notNull(),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    value: bigint('value', { mode: 'number' }).notNull(),
    at: at('at').notNull(),
    sentAt: at('sent_at'),
    failed: text('failed'),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.ecosystemId, t.idempotencyKey] }),
    index('meter_outbox_pending_idx').on(t.ecosystemId, t.at).where(sql`sent_at is null and failed is null`),
    index('meter_outbox_customer_idx').on(t.ecosystemId, t.customerId, t.feature, t.at),
  ],
)

/** Use per customer, feature and period (`2026-11` for monthly features, `all` otherwise): what checks read and reserves add to. */
export const usageCounters = billingSchema.table(
  'usage_counters',
  {
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    feature: text('feature').notNull(),
    period: text('period').notNull(),
    used: bigint('used', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.feature, t.period] })],
)

/**
 * Units of a hard-limited feature one replica has taken ahead of its sends (so most sends count in
 * memory), until `expires_at`: a reserve counts the live ones as taken. A replica that stops or
 * crashes leaves its lease to expire; spent units move to `used` within a second.
 */
export const usageLeases = billingSchema.table(
  'usage_leases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    feature: text('feature').notNull(),
    period: text('period').notNull(),
    units: bigint('units', { mode: 'number' }).notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('usage_leases_counter_idx').on(t.customerId, t.feature, t.period)],
)
