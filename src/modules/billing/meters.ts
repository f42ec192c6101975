import { createHash } from 'node:crypto'
import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Db } from '../../platform/db'
import { defineQueueHandler, type QueueHandler } from '../../platform/queue'
import type { FeatureDef } from './features'
import { meterOutbox, settings, stripeCustomers, subscriptions } from './schema'
import type { StripeGateway } from './stripe'

/** The queue job that sends an ecosystem's pending usage to its Stripe meters. */
export const SEND_METER_EVENTS = 'billing.send-meter-events'
/** Rows per round; a job makes rounds until none is left. */
const BATCH = 100
/** Meter events in flight at once. */
const PARALLEL = 8

/** Stripe takes identifiers of at most 100 characters: a longer idempotency key is sent as its SHA-256. */
export const meterIdentifier = (key: string) => (key.length <= 100 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`)

interface Accepted {
  idempotencyKey: string
  customerId: string
  feature: string
  value: number
  at: Date
}

/**
 * Usage-based charging: accepted usage of a metered feature that names a Stripe meter is written
 * to an outbox in the usage transaction, and a queued job sends it as meter events, batched, with
 * the idempotency key as `identifier`. A row is marked sent after Stripe accepted it; a crash in
 * between sends it again, which Stripe counts once. While Stripe fails the job throws, and the
 * queue retries it; rows Stripe refuses (4xx) are kept as `failed` and not retried.
 */
export class MeterReporter {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'logger' | 'now' | 'queue'>,
    private readonly stripe: StripeGateway,
    /** The ecosystem's Stripe secret key, when it bills through Stripe. */
    private readonly secretKey: (ecosystemId: string) => Promise<string | null>,
  ) {}

  queueHandlers(): QueueHandler[] {
    return [
      defineQueueHandler<{ ecosystemId: string }>({
        name: SEND_METER_EVENTS,
        options: { retryLimit: 20, retryBackoff: true, expireInSeconds: 300 },
        handle: async (job) => void (await this.send(job.ecosystemId)),
      }),
    ]
  }

  /**
   * In the usage transaction: the accepted events of metered features with a Stripe meter, with a
   * positive value, of customers with a Stripe customer (their subscription's, else the one
   * Checkout made), of an ecosystem billing through Stripe, go to the outbox, and a send is queued.
   * Given-back use (negative values) is not sent: Stripe meters take no negative events.
   */
  async record(tx: Db, ecosystemId: string, accepted: readonly Accepted[], defs: ReadonlyMap<string, FeatureDef>): Promise<void> {
    const metered = accepted.filter((e) => e.value > 0 && defs.get(e.feature)?.stripeMeter)
    if (metered.length === 0) return
    const [config] = await tx.select({ provider: settings.provider }).from(settings).where(eq(settings.ecosystemId, ecosystemId))
    if (config?.provider !== 'stripe') return
    const ids = [...new Set(metered.map((e) => e.customerId))]
    const [mapped, subscribed] = await Promise.all([
      tx
        .select({ customerId: stripeCustomers.customerId, stripeCustomerId: stripeCustomers.stripeCustomerId })
        .from(stripeCustomers)
        .where(and(eq(stripeCustomers.ecosystemId, ecosystemId), inArray(stripeCustomers.customerId, ids))),
      tx
        .select({ customerId: subscriptions.customerId, stripeCustomerId: subscriptions.stripeCustomerId })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.ecosystemId, ecosystemId),
            inArray(subscriptions.customerId, ids),
            sql`${subscriptions.stripeCustomerId} is not null`,
            sql`${subscriptions.status} in ('trialing', 'active', 'past_due')`,
          ),
        )
        .orderBy(asc(subscriptions.createdAt)),
    ])
    const stripeOf = new Map<string, string>()
    for (const m of mapped) stripeOf.set(m.customerId, m.stripeCustomerId)
    for (const s of subscribed) stripeOf.set(s.customerId, s.stripeCustomerId!)
    const rows = metered.flatMap((e) => {
      const stripeCustomerId = stripeOf.get(e.customerId)
      return stripeCustomerId
        ? [
            {
              ecosystemId,
              idempotencyKey: e.idempotencyKey,
              customerId: e.customerId,
              feature: e.feature,
              meter: defs.get(e.feature)!.stripeMeter!,
              stripeCustomerId,
              value: e.value,
              at: e.at,
            },
          ]
        : []
    })
    if (rows.length === 0) return
    await tx.insert(meterOutbox).values(rows).onConflictDoNothing()
    await this.deps.queue.send(tx, SEND_METER_EVENTS, { ecosystemId })
  }

  /** Sends the ecosystem's pending rows, oldest first, in rounds; throws when Stripe failed some (the queue retries). */
  async send(ecosystemId: string): Promise<{ sent: number; refused: number }> {
    const secretKey = await this.secretKey(ecosystemId)
    if (!secretKey) return { sent: 0, refused: 0 }
    let sent = 0
    let refused = 0
    let failure: unknown = null
    for (;;) {
      const due = await this.deps.db
        .select()
        .from(meterOutbox)
        .where(and(eq(meterOutbox.ecosystemId, ecosystemId), isNull(meterOutbox.sentAt), isNull(meterOutbox.failed)))
        .orderBy(asc(meterOutbox.at), asc(meterOutbox.idempotencyKey))
        .limit(BATCH)
      const done: string[] = []
      const bad: { key: string; message: string }[] = []
      const retry: string[] = []
      for (let i = 0; i < due.length; i += PARALLEL) {
        await Promise.all(
          due.slice(i, i + PARALLEL).map(async (row) => {
            try {
              const outcome = await this.stripe.meterEvent(secretKey, {
                eventName: row.meter,
                stripeCustomerId: row.stripeCustomerId,
                value: row.value,
                identifier: meterIdentifier(row.idempotencyKey),
                timestamp: row.at,
              })
              if ('sent' in outcome) done.push(row.idempotencyKey)
              else bad.push({ key: row.idempotencyKey, message: outcome.refused })
            } catch (err) {
              failure = err
              retry.push(row.idempotencyKey)
            }
          }),
        )
      }
      const now = this.deps.now()
      const of = (keys: string[]) => and(eq(meterOutbox.ecosystemId, ecosystemId), inArray(meterOutbox.idempotencyKey, keys))
      if (done.length)
        await this.deps.db
          .update(meterOutbox)
          .set({ sentAt: now, attempts: sql`${meterOutbox.attempts} + 1` })
          .where(of(done))
      for (const b of bad)
        await this.deps.db
          .update(meterOutbox)
          .set({ failed: b.message, attempts: sql`${meterOutbox.attempts} + 1` })
          .where(of([b.key]))
      if (retry.length)
        await this.deps.db
          .update(meterOutbox)
          .set({ attempts: sql`${meterOutbox.attempts} + 1` })
          .where(of(retry))
      sent += done.length
      refused += bad.length
      if (bad.length) this.deps.logger.warn('billing: Stripe refused meter events; kept as failed', { ecosystemId, count: bad.length, error: bad[0]!.message })
      // Sent and refused rows leave the pending set; rows Stripe failed on stay in it, for the queue's retry.
      if (due.length < BATCH || failure) break
    }
    if (failure) throw failure
    return { sent, refused }
  }

  /** What was reported for a customer's feature in a period (`from` inclusive, `to` exclusive; null = since always). */
  async reported(db: Db, ecosystemId: string, customerId: string, feature: FeatureDef, from: Date | null, to: Date | null) {
    const [row] = await db
      .select({
        sent: sql<string>`coalesce(sum(${meterOutbox.value}) filter (where ${meterOutbox.sentAt} is not null), 0)`,
        pending: sql<string>`coalesce(sum(${meterOutbox.value}) filter (where ${meterOutbox.sentAt} is null and ${meterOutbox.failed} is null), 0)`,
        failed: sql<string>`coalesce(sum(${meterOutbox.value}) filter (where ${meterOutbox.failed} is not null), 0)`,
      })
      .from(meterOutbox)
      .where(
        and(
          eq(meterOutbox.ecosystemId, ecosystemId),
          eq(meterOutbox.customerId, customerId),
          eq(meterOutbox.feature, feature.key),
          from ? gte(meterOutbox.at, from) : undefined,
          to ? lt(meterOutbox.at, to) : undefined,
        ),
      )
    return { meter: feature.stripeMeter!, sent: Number(row?.sent ?? 0), pending: Number(row?.pending ?? 0), failed: Number(row?.failed ?? 0) }
  }
}
