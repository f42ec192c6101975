import { and, desc, eq, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { afterCommit, afterRollback } from '../../platform/db/commit'
import { type Db, queryRows } from '../../platform/db'
import { type EntitlementGate, entitlementExceeded, type Hold, STORAGE_BYTES } from '../../platform/entitlements'
import { AppError } from '../../platform/errors'
import type { CounterTally } from '../../platform/tally'
import { ReplicaCache } from '../../platform/replica-cache'
import { storageReadings } from '../storage/service'
import { BUILT_IN, type FeatureDef, featureDef, grantsOf, isBuiltIn, periodOf, planInForce, type Standing, type SubscriptionRow } from './features'
import { assignments, features, plans, subscriptions, usageCounters, usageLeases } from './schema'
import { leaseKey, UsageBatch } from './usage-batch'

/** How often metered use with no limit to guard is written (see require). */
const METER_FLUSH_MS = 1000
/**
 * Standings by `<ecosystem id> <customer id>`. A change announces an ecosystem's id: its plans,
 * features, assignments or subscriptions changed, so every standing in it goes.
 */
const STANDING_CACHE = {
  channel: 'ecobase_billing',
  limit: 50_000,
  ttlMs: 60_000,
  concerns: (ecosystemId: string, key: string) => key.startsWith(`${ecosystemId} `),
}
/** A lease is used for this long after it is taken, and counted as taken in the database for LEASE_TTL_S. */
const LEASE_USE_MS = 5000
const LEASE_TTL_S = 15
/** At most this many units ahead, and never more than a tenth of what is left (the last tenth is counted one reserve at a time). */
const LEASE_MAX = 50

/**
 * How a lease asked for ended: `taken` (units taken ahead, once its transaction committed),
 * `refused` (none: too little left, as in a limit's last tenth, or the reserve itself did not fit),
 * `busy` (another reserve is taking the counter's lease: this one is counted exactly).
 */
type LeaseOutcome = 'taken' | 'refused' | 'busy'

/** Units taken ahead by this replica for one customer, feature and period (see usageLeases). */
interface Lease {
  id: string
  limit: number
  left: number
  until: number
}

/**
 * Standings per customer, cached per replica: a change to an ecosystem's plans, features,
 * assignments or subscriptions clears that ecosystem's entries here at commit and on every other
 * replica (NOTIFY), so a check on the presign or chat path costs no query for the plan. Use is
 * read fresh (or known by the caller, as storage's byte counter).
 */
export class Entitlements implements EntitlementGate {
  private readonly standings: ReplicaCache<Standing>
  /** Metered use and spent lease units not written yet. */
  private readonly batch: UsageBatch
  /** This replica's leases, by customer, feature and period. */
  private readonly leases = new Map<string, Lease>()
  /** Counters a lease is being taken for right now. */
  private readonly leasing = new Set<string>()
  /** The metrics' series: a feature is a built-in's key or `custom` (an ecosystem's own keys would be unbounded). */
  private readonly decisions: CounterTally<'feature' | 'decision'>
  private readonly leaseTakes: CounterTally<'outcome'>

  constructor(private readonly deps: Pick<Deps, 'config' | 'database' | 'db' | 'logger' | 'now' | 'metrics'>) {
    this.standings = new ReplicaCache(deps, STANDING_CACHE)
    this.batch = new UsageBatch(deps)
    this.decisions = deps.metrics.counter({
      name: 'ecobase_billing_gate_decisions_total',
      help: 'Entitlement decisions (storage and chat’s gate, POST /billing/check), by feature (a built-in’s key, or custom) and decision (allowed, denied)',
      labelNames: ['feature', 'decision'],
    })
    this.leaseTakes = deps.metrics.counter({
      name: 'ecobase_billing_lease_takes_total',
      help: 'Leases (units taken ahead under a hard limit) asked for by this replica, by outcome: taken, refused (too little left), busy (another being taken)',
      labelNames: ['outcome'],
    })
  }

  private decided(feature: string, allowed: boolean): void {
    this.decisions.of({ feature: isBuiltIn(feature) ? feature : 'custom', decision: allowed ? 'allowed' : 'denied' }).inc()
  }

  private leaseTaken(outcome: LeaseOutcome): void {
    this.leaseTakes.of({ outcome }).inc()
  }

  /**
   * The customer's standing, read in `db` (the caller's transaction, when it holds one: on PGlite
   * nothing else could read meanwhile). `fresh`: skip the cache and leave it alone (a writer
   * comparing before and after its change); otherwise from the cache, filling it.
   */
  async standing(ecosystemId: string, customerId: string, options: { db?: Db; fresh?: boolean } = {}): Promise<Standing> {
    const { db, fresh = false } = options
    const load = () => this.readStanding(db ?? this.deps.db, ecosystemId, customerId)
    if (fresh) return load()
    return (await this.standings.get(`${ecosystemId} ${customerId}`, load, { shared: db === undefined || db === this.deps.db }))!
  }

  private async readStanding(reader: Db, ecosystemId: string, customerId: string): Promise<Standing> {
    const [defs, allPlans, [assigned], subscription] = await Promise.all([
      this.features(reader, ecosystemId),
      reader.select({ key: plans.key, isDefault: plans.isDefault, entitlements: plans.entitlements }).from(plans).where(eq(plans.ecosystemId, ecosystemId)),
      reader
        .select({ plan: assignments.plan })
        .from(assignments)
        .where(and(eq(assignments.ecosystemId, ecosystemId), eq(assignments.customerId, customerId))),
      this.subscriptionOf(reader, ecosystemId, customerId),
    ])
    const defaultPlan = allPlans.find((p) => p.isDefault)?.key ?? null
    let inForce = planInForce({
      assignment: assigned?.plan ?? null,
      subscription,
      defaultPlan,
      now: this.deps.now(),
      graceDays: this.deps.config.billing.graceDays,
    })
    // A plan that does not exist grants nothing more than the default: never "no limits".
    if (inForce.plan !== null && !allPlans.some((p) => p.key === inForce.plan)) inForce = { plan: defaultPlan, source: 'default' }
    const plan = allPlans.find((p) => p.key === inForce.plan)
    return { ...inForce, subscription, grants: grantsOf(defs, plan?.entitlements ?? null) }
  }

  /** Built-in features, then the ecosystem's own by key. */
  async features(db: Db, ecosystemId: string): Promise<FeatureDef[]> {
    const rows = await db.select().from(features).where(eq(features.ecosystemId, ecosystemId)).orderBy(features.key)
    return [...BUILT_IN, ...rows.map(featureDef)]
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
    if (feature.key === STORAGE_BYTES) return storageReadings.usedBytes(db, { ecosystemId, customerId })
    const period = periodOf(feature.reset, this.deps.now())
    const [row] = await db
      .select({ used: usageCounters.used })
      .from(usageCounters)
      .where(and(eq(usageCounters.customerId, customerId), eq(usageCounters.feature, feature.key), eq(usageCounters.period, period)))
    return (row?.used ?? 0) + this.batch.pending(customerId, feature.key, period)
  }

  /**
   * The bytes `storage.bytes` counts as taken: those of ready files (storage's counter) and those
   * reserved by uploads presigned and not yet completed, deleted or expired
   * (STORAGE_PENDING_TTL_SECONDS). A pending upload's row is its reservation, so an upload that
   * expires or is deleted gives its bytes back by itself.
   */
  bytesTaken(db: Db, ecosystemId: string, customerId: string): Promise<number> {
    const since = new Date(this.deps.now().getTime() - this.deps.config.storage.pendingTtl * 1000)
    return storageReadings.bytesTaken(db, { ecosystemId, customerId }, since)
  }

  /**
   * Whether `amount` more is allowed; with `reserve`, the use is added under the counter row's lock
   * (reserveBounded), so of two concurrent reserves of the last unit one succeeds. Counted as a decision.
   */
  async check(input: { ecosystemId: string; customerId: string; feature: string; amount: number; used?: number; reserve?: boolean; tx?: Db }) {
    const result = await this.evaluate(input)
    this.decided(input.feature, result.allowed)
    return result
  }

  private async evaluate(input: { ecosystemId: string; customerId: string; feature: string; amount: number; used?: number; reserve?: boolean; tx?: Db }) {
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
    const who = { ecosystemId: input.ecosystemId, customerId: input.customerId, feature, period, amount: input.amount }
    // The bounded reserve's row lock must hold until its update: in the caller's transaction, or one of its own.
    const used = bounded
      ? await (input.tx
          ? this.reserveBounded(input.tx, { ...who, limit }, { ahead: false })
          : this.deps.db.transaction((tx) => this.reserveBounded(tx, { ...who, limit }, { ahead: false })))
      : await this.reserveUnbounded(db, who)
    if (used !== null) return { allowed: true, limit, used, remaining: limit === null ? null : Math.max(0, limit - used) }
    const now = await this.used(db, input.ecosystemId, input.customerId, feature)
    return { allowed: false, limit, used: now, remaining: limit === null ? null : Math.max(0, limit - now) }
  }

  /** Adds the use with nothing to guard (no limit, or `overage: allow`); the use after it. */
  private async reserveUnbounded(db: Db, t: { ecosystemId: string; customerId: string; feature: FeatureDef; period: string; amount: number }): Promise<number> {
    const [row] = await queryRows<{ used: number | string }>(
      db,
      sql`insert into ${usageCounters} (ecosystem_id, customer_id, feature, period, used)
          values (${t.ecosystemId}, ${t.customerId}, ${t.feature.key}, ${t.period}, ${t.amount})
          on conflict (customer_id, feature, period) do update set used = ${usageCounters}.used + excluded.used
          returning used`,
    )
    return Number(row!.used)
  }

  /**
   * Reserves under a hard limit, exactly: the counter row is locked first, then its use and every
   * live lease (of any replica) count as taken; the use after it, or null when it does not fit.
   * With `lease`, also takes units ahead for this replica's next sends (see take).
   */
  private async reserveBounded(
    db: Db,
    t: { ecosystemId: string; customerId: string; feature: FeatureDef; period: string; amount: number; limit: number },
    lease: { ahead: boolean; giveBack?: { id: string; units: number } },
  ): Promise<number | null> {
    const key = sql`customer_id = ${t.customerId} and feature = ${t.feature.key} and period = ${t.period}`
    // The no-op update locks the row (waiting for a reserve under way), then the next statement's
    // snapshot sees the leases that reserve took.
    const [counter] = await queryRows<{ used: number | string }>(
      db,
      sql`insert into ${usageCounters} (ecosystem_id, customer_id, feature, period, used)
          values (${t.ecosystemId}, ${t.customerId}, ${t.feature.key}, ${t.period}, 0)
          on conflict (customer_id, feature, period) do update set used = ${usageCounters}.used
          returning used`,
    )
    // This replica's earlier lease that it will not spend (expired here, or for an old limit) stops counting as taken.
    if (lease.giveBack) await db.execute(sql`update ${usageLeases} set units = units - ${lease.giveBack.units} where id = ${lease.giveBack.id}::uuid`)
    const [leased] = await queryRows<{ held: number | string }>(
      db,
      sql`with gone as (delete from ${usageLeases} where ${key} and expires_at < clock_timestamp() - interval '1 minute')
          select coalesce(sum(units), 0) as held from ${usageLeases} where ${key} and expires_at > clock_timestamp()`,
    )
    // Bytes are taken by the caller's pending upload (its row is the reservation), not by a counter.
    const storage = t.feature.key === STORAGE_BYTES
    const used = storage ? await this.bytesTaken(db, t.ecosystemId, t.customerId) : Number(counter!.used)
    const free = t.limit - used - Number(leased!.held)
    if (t.amount > free) {
      if (lease.ahead) this.leaseTaken('refused')
      return null
    }
    if (!storage) await db.execute(sql`update ${usageCounters} set used = used + ${t.amount} where ${key}`)
    const ahead = lease.ahead ? Math.min(storage ? Number.MAX_SAFE_INTEGER : LEASE_MAX, Math.floor((free - t.amount) / 10)) : 0
    if (ahead > 0) {
      const takenAt = Date.now()
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`insert into ${usageLeases} (ecosystem_id, customer_id, feature, period, units, expires_at)
            values (${t.ecosystemId}, ${t.customerId}, ${t.feature.key}, ${t.period}, ${ahead}, clock_timestamp() + make_interval(secs => ${LEASE_TTL_S}))
            returning id`,
      )
      afterCommit(db, () => {
        this.leases.set(leaseKey(t.customerId, t.feature.key, t.period), { id: row!.id, limit: t.limit, left: ahead, until: takenAt + LEASE_USE_MS })
        this.leaseTaken('taken')
      })
    } else if (lease.ahead) this.leaseTaken('refused')
    return used + t.amount
  }

  /**
   * A send's reserve under a hard limit, in its transaction: from this replica's lease when it has
   * units left (no query: the units are written with the metered batch, within a second), else
   * exactly, taking a new lease of up to a tenth of what is left. So far from the limit a send costs
   * microseconds, and the last tenth is counted one send at a time across replicas. A lease not
   * spent within LEASE_USE_MS (or taken under another limit) is given back by the next lease this
   * replica takes; one a replica never replaces counts as taken until LEASE_TTL_S, and meanwhile
   * another replica may refuse the very last units.
   */
  private async take(tx: Db, t: { ecosystemId: string; customerId: string; feature: FeatureDef; amount: number; limit: number }): Promise<boolean> {
    const period = periodOf(t.feature.reset, this.deps.now())
    const key = leaseKey(t.customerId, t.feature.key, period)
    const lease = this.leases.get(key)
    const held = this.fromLease(t)
    if (held) {
      afterRollback(tx, () => held.release())
      afterCommit(tx, () => held.commit())
      return true
    }
    // One lease at a time per counter, until its transaction ends: sends that arrive meanwhile are counted exactly.
    const leasing = !this.leasing.has(key)
    if (!leasing) {
      this.leaseTaken('busy')
      return (await this.reserveBounded(tx, { ...t, period }, { ahead: false })) !== null
    }
    this.leasing.add(key)
    const done = () => this.leasing.delete(key)
    // What is left of the lease it replaces goes back (restored here if this transaction rolls back).
    const unspent = lease?.left ?? 0
    if (lease && unspent > 0) {
      lease.left = 0
      afterRollback(tx, () => {
        lease.left += unspent
      })
    }
    try {
      const used = await this.reserveBounded(
        tx,
        { ...t, period },
        { ahead: true, giveBack: lease && unspent > 0 ? { id: lease.id, units: unspent } : undefined },
      )
      afterCommit(tx, done)
      afterRollback(tx, done)
      return used !== null
    } catch (err) {
      done()
      throw err
    }
  }

  /**
   * Units from this replica's lease, in memory, when it holds enough for this limit: the hold
   * counts them as spent once committed (written with the metered batch), or gives them back.
   */
  private fromLease(t: { ecosystemId: string; customerId: string; feature: FeatureDef; amount: number; limit: number }): Hold | null {
    const lease = this.leases.get(leaseKey(t.customerId, t.feature.key, periodOf(t.feature.reset, this.deps.now())))
    if (!lease || lease.limit !== t.limit || lease.left < t.amount || Date.now() >= lease.until) return null
    lease.left -= t.amount
    return {
      commit: () => {
        if (t.feature.key !== STORAGE_BYTES) this.meter(t.ecosystemId, t.customerId, t.feature, t.amount)
        this.batch.spend(lease.id, t.amount)
      },
      release: () => {
        lease.left += t.amount
      },
    }
  }

  /**
   * See EntitlementGate.hold: nothing to hold when the plan leaves the feature unbounded (a
   * metered one is counted at commit, batched), units from this replica's lease when it has them;
   * else null, and the caller reserves in its transaction (which may take a new lease).
   */
  async hold(input: { ecosystemId: string; customerId: string; feature: string; amount: number }): Promise<Hold | null> {
    const grant = (await this.standing(input.ecosystemId, input.customerId)).grants.get(input.feature)
    if (!grant?.enabled || grant.feature.type === 'boolean') return null
    let hold: Hold | null
    if (grant.limit === null || grant.overage === 'allow') {
      const metered = grant.feature.key !== STORAGE_BYTES
      hold = { commit: () => metered && this.meter(input.ecosystemId, input.customerId, grant.feature, input.amount), release: () => {} }
    } else hold = this.fromLease({ ...input, feature: grant.feature, limit: grant.limit })
    // Null decides nothing: the caller's require does.
    if (hold) this.decided(input.feature, true)
    return hold
  }

  /**
   * The gate storage and chat call: 402 `entitlement_exceeded` when not allowed. A reserve under a
   * hard limit in the caller's transaction is taken as `take` says; one with no limit to guard (none, or `overage: allow`) only meters, so it is counted once the caller's
   * transaction commits, batched with others and written within a second (METER_FLUSH_MS).
   * `storage.bytes` is reserved by the upload the caller writes in `tx` (its pending row, see
   * bytesTaken): under a hard limit the bytes come from a lease as a send's units do, and nothing
   * is metered.
   */
  async require(input: { ecosystemId: string; customerId: string; feature: string; amount: number; used?: number; reserve?: boolean; tx?: Db }): Promise<void> {
    try {
      await this.enforce(input)
    } catch (err) {
      if (err instanceof AppError && err.code === 'entitlement_exceeded') this.decided(input.feature, false)
      throw err
    }
    this.decided(input.feature, true)
  }

  private async enforce(input: { ecosystemId: string; customerId: string; feature: string; amount: number; used?: number; reserve?: boolean; tx?: Db }) {
    if (input.reserve) {
      const grant = (await this.standing(input.ecosystemId, input.customerId, { db: input.tx })).grants.get(input.feature)
      if (grant?.enabled && grant.feature.type !== 'boolean' && (grant.limit === null || grant.overage === 'allow')) {
        if (grant.feature.key === STORAGE_BYTES) return
        const meter = () => this.meter(input.ecosystemId, input.customerId, grant.feature, input.amount)
        if (input.tx) afterCommit(input.tx, meter)
        else meter()
        return
      }
      if (input.tx && grant?.enabled && grant.feature.type !== 'boolean' && grant.limit !== null && input.amount <= grant.limit) {
        if (await this.take(input.tx, { ...input, feature: grant.feature, limit: grant.limit })) return
        const used =
          grant.feature.key === STORAGE_BYTES
            ? await this.bytesTaken(input.tx, input.ecosystemId, input.customerId)
            : await this.used(input.tx, input.ecosystemId, input.customerId, grant.feature)
        throw entitlementExceeded(input.feature, grant.limit, used, input.amount)
      }
    }
    const result = await this.evaluate(input)
    if (!result.allowed) throw entitlementExceeded(input.feature, result.limit ?? 0, result.used, input.amount)
  }

  /** Clears the ecosystem's standings here once `tx` commits, and on the other replicas through NOTIFY. */
  changed(tx: Db, ecosystemId: string): Promise<void> {
    return this.standings.changed(tx, ecosystemId)
  }

  /** Follows changes made on other replicas, and writes metered use every METER_FLUSH_MS; resolves to its stop (which writes what is left). */
  async listen(): Promise<() => Promise<void>> {
    const unlisten = await this.standings.listen()
    // A tick while a write is under way (a slow database) leaves it be, rather than queueing behind it.
    const timer = setInterval(() => {
      if (!this.batch.writing) void this.flush()
    }, METER_FLUSH_MS)
    return async () => {
      clearInterval(timer)
      await unlisten()
      await this.flush()
      await this.release()
    }
  }

  /** Adds use to the next batch (the caller's transaction has committed). */
  private meter(ecosystemId: string, customerId: string, feature: FeatureDef, amount: number): void {
    const period = periodOf(feature.reset, this.deps.now())
    this.batch.add({ ecosystemId, customerId, feature: feature.key, period }, amount)
  }

  /** Writes the batched use and spent lease units (see UsageBatch.flush), after forgetting leases long past use. */
  async flush(): Promise<void> {
    // Leases long past use (another period's, or replaced) are forgotten; their rows have expired.
    for (const [key, lease] of this.leases) if (Date.now() > lease.until + LEASE_TTL_S * 1000) this.leases.delete(key)
    await this.batch.flush()
  }

  /** On stop: the unspent units of this replica's leases go back at once (a crash leaves them to expire). */
  private async release(): Promise<void> {
    const ids = [...this.leases.values()].map((l) => l.id)
    this.leases.clear()
    if (ids.length === 0) return
    try {
      await this.deps.db.execute(
        sql`delete from ${usageLeases} where id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      )
    } catch (err) {
      this.deps.logger.warn('billing: leases left to expire', { error: String(err) })
    }
  }
}
