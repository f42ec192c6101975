import { sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { usageCounters, usageLeases } from './schema'

/** The key of one counter: a customer's use of a feature in a period. */
export const leaseKey = (customerId: string, feature: string, period: string) => `${customerId} ${feature} ${period}`

interface Counted {
  ecosystemId: string
  customerId: string
  feature: string
  period: string
  amount: number
}

/**
 * A replica's use counted in memory and not written yet: metered use by counter, and lease units
 * spent by committed sends by lease id. Both are written in one transaction (so a spent unit counts
 * once, as a lease's or as used); on failure both stay for the next try.
 */
export class UsageBatch {
  private readonly metered = new Map<string, Counted>()
  private readonly spent = new Map<string, number>()
  /** Metered use taken by the write under way: still pending for readers until that write commits. */
  private inFlight = new Map<string, Counted>()
  /** The write under way, if any (see flush). */
  private flushing: Promise<void> | null = null

  constructor(private readonly deps: Pick<Deps, 'db' | 'logger'>) {}

  /** Whether a write is under way. */
  get writing(): boolean {
    return this.flushing !== null
  }

  /** Adds use of one counter (its transaction has committed). */
  add(counter: Omit<Counted, 'amount'>, amount: number): void {
    const key = leaseKey(counter.customerId, counter.feature, counter.period)
    const entry = this.metered.get(key)
    if (entry) entry.amount += amount
    else this.metered.set(key, { ...counter, amount })
  }

  /** Counts `amount` units of a lease as spent. */
  spend(leaseId: string, amount: number): void {
    this.spent.set(leaseId, (this.spent.get(leaseId) ?? 0) + amount)
  }

  /**
   * A counter's use counted here and not committed yet, the write under way included: a reading
   * during a flush otherwise missed it (neither here nor in the database). A reading on another
   * connection in the instant between that write's commit and its return counts it twice: over,
   * never under.
   */
  pending(customerId: string, feature: string, period: string): number {
    const key = leaseKey(customerId, feature, period)
    return (this.metered.get(key)?.amount ?? 0) + (this.inFlight.get(key)?.amount ?? 0)
  }

  /**
   * Writes what is counted. A flush asked for while another writes waits for it, then writes what
   * was counted since: when it resolves, everything counted before the call has been tried (the
   * stop relies on it).
   */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.metered.size === 0 && this.spent.size === 0) return
    this.flushing = this.write().finally(() => {
      this.flushing = null
    })
    await this.flushing
  }

  /** One write of everything counted so far (see flush). */
  private async write(): Promise<void> {
    const batch = [...this.metered.values()].sort((a, b) => (a.customerId + a.feature + a.period).localeCompare(b.customerId + b.feature + b.period))
    const spent = [...this.spent]
    this.inFlight = new Map(this.metered)
    this.metered.clear()
    this.spent.clear()
    try {
      await this.deps.db.transaction(async (tx) => {
        if (batch.length > 0) {
          await tx.execute(
            sql`insert into ${usageCounters} (ecosystem_id, customer_id, feature, period, used)
                values ${sql.join(
                  batch.map((m) => sql`(${m.ecosystemId}, ${m.customerId}, ${m.feature}, ${m.period}, ${m.amount})`),
                  sql`, `,
                )}
                on conflict (customer_id, feature, period) do update set used = ${usageCounters}.used + excluded.used`,
          )
        }
        if (spent.length > 0) {
          await tx.execute(
            sql`update ${usageLeases} as l set units = l.units - v.spent
                from (values ${sql.join(
                  spent.map(([id, n]) => sql`(${id}::uuid, ${n}::bigint)`),
                  sql`, `,
                )}) as v(id, spent)
                where l.id = v.id`,
          )
        }
      })
    } catch (err) {
      for (const m of batch) this.add(m, m.amount)
      for (const [id, n] of spent) this.spend(id, n)
      this.deps.logger.warn('billing: metered use not written yet', { error: String(err) })
    } finally {
      this.inFlight = new Map()
    }
  }
}
