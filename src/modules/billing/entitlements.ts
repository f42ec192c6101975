import { and, desc, eq, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { afterCommit } from '../../platform/db/commit'
import { type Db, queryRows } from '../../platform/db'
import { CHAT_MESSAGES, type EntitlementGate, entitlementExceeded, STORAGE_BYTES } from '../../platform/entitlements'
import { AppError } from '../../platform/errors'
import { storageUsage } from '../storage/schema'
import { assignments, features, type PlanEntitlement, plans, subscriptions, usageCounters } from './schema'

export type FeatureType = 'boolean' | 'limit' | 'metered'
export type Reset = 'month' | 'never'
export type Source = 'default' | 'manual' | 'stripe'

export interface FeatureDef {
  key: string
  name: string
  type: FeatureType
  unit: string
  reset: Reset
  builtIn: boolean
}

/** The features Ecobase meters itself. */
export const BUILT_IN: readonly FeatureDef[] = [
  { key: STORAGE_BYTES, name: 'Storage', type: 'limit', unit: 'bytes', reset: 'never', builtIn: true },
  { key: CHAT_MESSAGES, name: 'Chat messages', type: 'metered', unit: 'messages', reset: 'month', builtIn: true },
]
export const isBuiltIn = (key: string) => BUILT_IN.some((f) => f.key === key)

/** What a plan grants of one feature. */
export interface Grant {
  feature: FeatureDef
  enabled: boolean
  /** null: no limit. */
  limit: number | null
  overage: 'block' | 'allow'
}

type SubscriptionRow = typeof subscriptions.$inferSelect

/** What decides a customer's entitlements right now, and what they are. */
export interface Standing {
  plan: string | null
  source: Source
  subscription: SubscriptionRow | null
  grants: Map<string, Grant>
}

/** Subscription states that grant their plan (past_due too, for BILLING_GRACE_DAYS after the period ended). */
const GRANTING = new Set(['trialing', 'active'])

/**
 * The one place entitlements are decided: a manual assignment wins; else a subscription that is
 * trialing or active (or past_due within the grace period after its period ended) grants its plan;
 * else the default plan (or none). Never from the order events arrived in: from the mirror as it is.
 */
export function planInForce(input: { assignment: string | null; subscription: SubscriptionRow | null; defaultPlan: string | null; now: Date; graceDays: number }): { plan: string | null; source: Source } {
  if (input.assignment) return { plan: input.assignment, source: 'manual' }
  const s = input.subscription
  if (s?.plan && grants(s, input.now, input.graceDays)) return { plan: s.plan, source: 'stripe' }
  return { plan: input.defaultPlan, source: 'default' }
}

function grants(s: SubscriptionRow, now: Date, graceDays: number): boolean {
  if (GRANTING.has(s.status)) return true
  if (s.status !== 'past_due') return false
  const end = s.currentPeriodEnd ?? s.updatedAt
  return now.getTime() < end.getTime() + graceDays * 86_400_000
}

/**
 * What a plan grants of each feature. A feature the plan names: as it says (enabled unless
 * `enabled: false`; `limit` null or absent = none). A feature it does not name: built-in ones
 * have no limit (billing set up or not, only quotas apply), others are not granted.
 */
export function grantsOf(defs: readonly FeatureDef[], entitlements: readonly PlanEntitlement[] | null): Map<string, Grant> {
  const named = new Map((entitlements ?? []).map((e) => [e.feature, e]))
  const out = new Map<string, Grant>()
  for (const feature of defs) {
    const e = named.get(feature.key)
    if (e) out.set(feature.key, { feature, enabled: e.enabled ?? true, limit: feature.type === 'boolean' ? null : (e.limit ?? null), overage: e.overage ?? 'block' })
    else out.set(feature.key, { feature, enabled: feature.builtIn, limit: feature.builtIn || feature.type === 'boolean' ? null : 0, overage: 'block' })
  }
  return out
}

/** The counter a use lands in: the month (UTC) for monthly features, `all` otherwise. */
export const periodOf = (reset: Reset, at: Date) => (reset === 'month' ? at.toISOString().slice(0, 7) : 'all')
export const resetsAt = (reset: Reset, now: Date) => (reset === 'month' ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString() : null)

const CHANNEL = 'ecobase_billing'
const CACHE_MS = 60_000
/** How often metered use with no limit to guard is written (see require). */
const METER_FLUSH_MS = 1000
const CACHE_LIMIT = 50_000

/**
 * Standings per customer, cached per replica: a change to an ecosystem's plans, features,
 * assignments or subscriptions clears that ecosystem's entries here at commit and on every other
 * replica (NOTIFY), so a check on the presign or chat path costs no query for the plan. Use is
 * read fresh (or known by the caller, as storage's byte counter).
 */
export class Entitlements implements EntitlementGate {
  /** By ecosystem, then customer: a change clears one ecosystem's at once. */
  private readonly cache = new Map<string, Map<string, { standing: Standing; until: number }>>()
  private cached = 0
  /** Metered use not written yet, by customer, feature and period. */
  private readonly metered = new Map<string, { ecosystemId: string; customerId: string; feature: string; period: string; amount: number }>()
  private flushing = false
  /** Bumped by every change to an ecosystem: a read that started before one does not fill the cache. */
  private readonly versions = new Map<string, number>()

  constructor(private readonly deps: Pick<Deps, 'config' | 'database' | 'db' | 'logger' | 'now'>) {}

  /**
   * The customer's standing, read in `db` (the caller's transaction, when it holds one: on PGlite
   * nothing else could read meanwhile). `fresh`: skip the cache and leave it alone (a writer
   * comparing before and after its change); otherwise from the cache, filling it.
   */
  async standing(ecosystemId: string, customerId: string, options: { db?: Db; fresh?: boolean } = {}): Promise<Standing> {
    const { db, fresh = false } = options
    const hit = fresh ? undefined : this.cache.get(ecosystemId)?.get(customerId)
    if (hit && hit.until > Date.now()) return hit.standing
    const version = this.versions.get(ecosystemId) ?? 0
    const reader = db ?? this.deps.db
    const [defs, allPlans, [assigned], subscription] = await Promise.all([
      this.features(reader, ecosystemId),
      reader.select({ key: plans.key, isDefault: plans.isDefault, entitlements: plans.entitlements }).from(plans).where(eq(plans.ecosystemId, ecosystemId)),
      reader.select({ plan: assignments.plan }).from(assignments).where(and(eq(assignments.ecosystemId, ecosystemId), eq(assignments.customerId, customerId))),
      this.subscriptionOf(reader, ecosystemId, customerId),
    ])
    const inForce = planInForce({
      assignment: assigned?.plan ?? null,
      subscription,
      defaultPlan: allPlans.find((p) => p.isDefault)?.key ?? null,
      now: this.deps.now(),
      graceDays: this.deps.config.billing.graceDays,
    })
    const plan = allPlans.find((p) => p.key === inForce.plan)
    const standing: Standing = { ...inForce, subscription, grants: grantsOf(defs, plan?.entitlements ?? null) }
    if (!fresh && (this.versions.get(ecosystemId) ?? 0) === version) {
      if (this.cached >= CACHE_LIMIT) {
        this.cache.clear()
        this.cached = 0
      }
      const entries = this.cache.get(ecosystemId) ?? new Map()
      if (!entries.has(customerId)) this.cached++
      this.cache.set(ecosystemId, entries.set(customerId, { standing, until: Date.now() + CACHE_MS }))
    }
    return standing
  }

  /** Built-in features, then the ecosystem's own by key. */
  async features(db: Db, ecosystemId: string): Promise<FeatureDef[]> {
    const rows = await db.select().from(features).where(eq(features.ecosystemId, ecosystemId)).orderBy(features.key)
    return [...BUILT_IN, ...rows.map((r) => ({ key: r.key, name: r.name, type: r.type, unit: r.unit, reset: r.reset, builtIn: false }))]
  }

  /** The customer's subscription that counts: a granting one first, else the newest. */
  async subscriptionOf(db: Db, ecosystemId: string, customerId: string): Promise<SubscriptionRow | null> {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.ecosystemId, ecosystemId), eq(subscriptions.customerId, customerId)))
      .orderBy(sql`${subscriptions.status} in ('trialing', 'active', 'past_due') desc`, desc(subscriptions.createdAt))
      .limit(1)
    return row ?? null
  }

  /** The use that counts against a grant now: storage's byte counter, or the feature's counter for this period. */
  async used(db: Db, ecosystemId: string, customerId: string, feature: FeatureDef): Promise<number> {
    if (feature.key === STORAGE_BYTES) {
      const [row] = await db.select({ used: storageUsage.usedBytes }).from(storageUsage).where(and(eq(storageUsage.ecosystemId, ecosystemId), eq(storageUsage.customerId, customerId)))
      return row?.used ?? 0
    }
    const period = periodOf(feature.reset, this.deps.now())
    const [row] = await db
      .select({ used: usageCounters.used })
      .from(usageCounters)
      .where(and(eq(usageCounters.customerId, customerId), eq(usageCounters.feature, feature.key), eq(usageCounters.period, period)))
    return (row?.used ?? 0) + (this.metered.get(`${customerId} ${feature.key} ${period}`)?.amount ?? 0)
  }

  /**
   * Whether `amount` more is allowed; with `reserve`, the use is added in the same statement, so
   * of two concurrent reserves of the last unit one succeeds (the counter row is the lock).
   */
  async check(input: { ecosystemId: string; customerId: string; feature: string; amount: number; used?: number; reserve?: boolean; tx?: Db }) {
    const db = input.tx ?? this.deps.db
    const grant = (await this.standing(input.ecosystemId, input.customerId, { db })).grants.get(input.feature)
    if (!grant) throw new AppError(404, 'not_found', `No feature ${input.feature}`)
    const { feature, limit } = grant
    if (feature.type === 'boolean') return { allowed: grant.enabled, limit: null, used: 0, remaining: null }
    const bounded = limit !== null && grant.overage === 'block'
    if (!input.reserve) {
      const used = input.used ?? (await this.used(db, input.ecosystemId, input.customerId, feature))
      const allowed = grant.enabled && (!bounded || used + input.amount <= limit)
      return { allowed, limit, used, remaining: limit === null ? null : Math.max(0, limit - used) }
    }
    if (!grant.enabled || (bounded && input.amount > limit)) {
      const used = await this.used(db, input.ecosystemId, input.customerId, feature)
      return { allowed: false, limit, used, remaining: limit === null ? null : Math.max(0, limit - used) }
    }
    const period = periodOf(feature.reset, this.deps.now())
    // One statement, written out: it runs on every chat send, where the query builder's own time showed.
    const [row] = await queryRows<{ used: number | string }>(
      db,
      sql`insert into ${usageCounters} (ecosystem_id, customer_id, feature, period, used)
          values (${input.ecosystemId}, ${input.customerId}, ${feature.key}, ${period}, ${input.amount})
          on conflict (customer_id, feature, period) do update set used = ${usageCounters}.used + excluded.used
          ${bounded ? sql`where ${usageCounters}.used + excluded.used <= ${limit}` : sql``}
          returning used`,
    )
    if (row) return { allowed: true, limit, used: Number(row.used), remaining: limit === null ? null : Math.max(0, limit - Number(row.used)) }
    const used = await this.used(db, input.ecosystemId, input.customerId, feature)
    return { allowed: false, limit, used, remaining: limit === null ? null : Math.max(0, limit - used) }
  }

  /**
   * The gate storage and chat call: 402 `entitlement_exceeded` when not allowed. A reserve under a
   * hard limit is counted in the caller's transaction (exact: the counter row decides); one with
   * no limit to guard (none, or `overage: allow`) only meters, so it is counted once the caller's
   * transaction commits, batched with others and written within a second (METER_FLUSH_MS).
   */
  async require(input: { ecosystemId: string; customerId: string; feature: string; amount: number; used?: number; reserve?: boolean; tx?: Db }): Promise<void> {
    if (input.reserve) {
      const grant = (await this.standing(input.ecosystemId, input.customerId, { db: input.tx })).grants.get(input.feature)
      if (grant?.enabled && grant.feature.type !== 'boolean' && (grant.limit === null || grant.overage === 'allow')) {
        const meter = () => this.meter(input.ecosystemId, input.customerId, grant.feature, input.amount)
        if (input.tx) afterCommit(input.tx, meter)
        else meter()
        return
      }
    }
    const result = await this.check(input)
    if (!result.allowed) throw entitlementExceeded(input.feature, result.limit ?? 0, result.used, input.amount)
  }

  /** Clears the ecosystem's standings here once `tx` commits, and on the other replicas through NOTIFY. */
  async changed(tx: Db, ecosystemId: string): Promise<void> {
    await tx.execute(sql`select pg_notify(${CHANNEL}, ${ecosystemId})`)
    afterCommit(tx, () => this.forget(ecosystemId))
  }

  /** Follows changes made on other replicas, and writes metered use every METER_FLUSH_MS; resolves to its stop (which writes what is left). */
  async listen(): Promise<() => Promise<void>> {
    const unlisten = await this.deps.database.listen(CHANNEL, (ecosystemId) => this.forget(ecosystemId))
    const timer = setInterval(() => void this.flush(), METER_FLUSH_MS)
    return async () => {
      clearInterval(timer)
      await unlisten()
      await this.flush()
    }
  }

  /** Adds use to the next batch (the caller's transaction has committed). */
  private meter(ecosystemId: string, customerId: string, feature: FeatureDef, amount: number): void {
    const period = periodOf(feature.reset, this.deps.now())
    const key = `${customerId} ${feature.key} ${period}`
    const entry = this.metered.get(key)
    if (entry) entry.amount += amount
    else this.metered.set(key, { ecosystemId, customerId, feature: feature.key, period, amount })
  }

  /** Writes the batched use in one statement; on failure it stays for the next try. */
  async flush(): Promise<void> {
    if (this.flushing || this.metered.size === 0) return
    this.flushing = true
    const batch = [...this.metered.values()].sort((a, b) => (a.customerId + a.feature + a.period).localeCompare(b.customerId + b.feature + b.period))
    this.metered.clear()
    try {
      await this.deps.db.execute(
        sql`insert into ${usageCounters} (ecosystem_id, customer_id, feature, period, used)
            values ${sql.join(batch.map((m) => sql`(${m.ecosystemId}, ${m.customerId}, ${m.feature}, ${m.period}, ${m.amount})`), sql`, `)}
            on conflict (customer_id, feature, period) do update set used = ${usageCounters}.used + excluded.used`,
      )
    } catch (err) {
      for (const m of batch) {
        const key = `${m.customerId} ${m.feature} ${m.period}`
        const entry = this.metered.get(key)
        if (entry) entry.amount += m.amount
        else this.metered.set(key, m)
      }
      this.deps.logger.warn('billing: metered use not written yet', { error: String(err) })
    } finally {
      this.flushing = false
    }
  }

  private forget(ecosystemId: string): void {
    this.versions.set(ecosystemId, (this.versions.get(ecosystemId) ?? 0) + 1)
    this.cached -= this.cache.get(ecosystemId)?.size ?? 0
    this.cache.delete(ecosystemId)
  }
}
