import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { type Db, queryRows } from '../../platform/db'
import { AppError } from '../../platform/errors'
import { listPage, pageOf, type PageParams } from '../../platform/paging'
import { customerDirectory } from '../customer/directory'
import type { EventBus } from '../../platform/events'
import { badgeEarned } from './events'
import { badges, type Criteria, levels, memberStats, pointBoards, pointRules, points, pointTotals, userBadges } from './schema'

export const PERIODS = ['all_time', 'year', 'month', 'week', 'day'] as const
export type Period = (typeof PERIODS)[number]

export const DEFAULT_RULES = { threadCreated: 5, replyCreated: 2, replyReceived: 1 }
export const DEFAULT_LEVELS = [
  { name: 'Newcomer', minPoints: 0 },
  { name: 'Member', minPoints: 50 },
  { name: 'Regular', minPoints: 200 },
  { name: 'Leader', minPoints: 1000 },
]

export interface Award {
  ecosystemId: string
  customerId: string
  amount: number
  reason: string
  sourceType: string
  sourceId: string
}

type StatColumn = 'threadsCreated' | 'repliesCreated' | 'repliesReceived'
const STAT_CRITERIA: Record<StatColumn, Criteria> = {
  threadsCreated: 'threads_created',
  repliesCreated: 'replies_created',
  repliesReceived: 'replies_received',
}

/** The start of the UTC calendar period holding `at` (weeks start on Monday, ISO 8601); all_time: the epoch. */
export function bucketOf(period: Period, at: Date): Date {
  const y = at.getUTCFullYear()
  const m = at.getUTCMonth()
  const d = at.getUTCDate()
  switch (period) {
    case 'all_time':
      return new Date(0)
    case 'year':
      return new Date(Date.UTC(y, 0, 1))
    case 'month':
      return new Date(Date.UTC(y, m, 1))
    case 'week':
      return new Date(Date.UTC(y, m, d - ((at.getUTCDay() + 6) % 7)))
    case 'day':
      return new Date(Date.UTC(y, m, d))
  }
}

export const pointsView = (r: typeof points.$inferSelect) => ({
  id: r.id,
  amount: r.amount,
  reason: r.reason,
  sourceType: r.sourceType,
  sourceId: r.sourceId,
  createdAt: r.createdAt.toISOString(),
})

/**
 * The points ledger and what follows from it, all in the caller's transaction: an award is a
 * ledger row unique per (customer, source) — a repeat, also a concurrent one, adds nothing — and
 * moves the customer's running totals for every period; crossing a badge's threshold awards the
 * badge (once: unique per customer and badge) and its points.
 */
export class PointsLedger {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    private readonly events: Pick<EventBus, 'emit'>,
  ) {}

  /** Records an award; null when this (customer, sourceType, sourceId) was already awarded. */
  async award(tx: Db, award: Award): Promise<typeof points.$inferSelect | null> {
    const [row] = await tx
      .insert(points)
      .values({ ...award, createdAt: this.deps.now() })
      .onConflictDoNothing({ target: [points.customerId, points.sourceType, points.sourceId] })
      .returning()
    if (!row) return null
    const totals = await tx
      .insert(pointTotals)
      .values(
        PERIODS.map((period) => ({
          ecosystemId: award.ecosystemId,
          customerId: award.customerId,
          period,
          bucket: bucketOf(period, row.createdAt),
          total: award.amount,
        })),
      )
      .onConflictDoUpdate({
        target: [pointTotals.customerId, pointTotals.period, pointTotals.bucket],
        set: { total: sql`${pointTotals.total} + excluded.total` },
      })
      // xmax = 0: the row was inserted, so the customer enters that period's leaderboard.
      .returning({ period: pointTotals.period, bucket: pointTotals.bucket, total: pointTotals.total, entered: sql<boolean>`(xmax = 0)` })
    const entered = totals.filter((t) => t.entered)
    if (entered.length) {
      await tx
        .insert(pointBoards)
        .values(entered.map((t) => ({ ecosystemId: award.ecosystemId, period: t.period, bucket: t.bucket, customers: 1 })))
        .onConflictDoUpdate({
          target: [pointBoards.ecosystemId, pointBoards.period, pointBoards.bucket],
          set: { customers: sql`${pointBoards.customers} + 1` },
        })
    }
    const allTime = totals.find((t) => t.period === 'all_time')!.total
    await this.crossBadges(tx, award.ecosystemId, award.customerId, 'points_total', allTime)
    return row
  }

  /** Adds one to a customer's count and awards the badges that count now reaches. */
  async bump(tx: Db, ecosystemId: string, customerId: string, stat: StatColumn): Promise<void> {
    const [row] = await tx
      .insert(memberStats)
      .values({ ecosystemId, customerId, [stat]: 1 })
      .onConflictDoUpdate({ target: memberStats.customerId, set: { [stat]: sql`${memberStats[stat]} + 1` } })
      .returning({ value: memberStats[stat] })
    await this.crossBadges(tx, ecosystemId, customerId, STAT_CRITERIA[stat], row!.value)
  }

  async rules(db: Db, ecosystemId: string) {
    const [row] = await db.select().from(pointRules).where(eq(pointRules.ecosystemId, ecosystemId))
    return row ? { threadCreated: row.threadCreated, replyCreated: row.replyCreated, replyReceived: row.replyReceived } : DEFAULT_RULES
  }

  async setRules(ecosystemId: string, rules: typeof DEFAULT_RULES) {
    await this.deps.db
      .insert(pointRules)
      .values({ ecosystemId, ...rules })
      .onConflictDoUpdate({ target: pointRules.ecosystemId, set: { ...rules, updatedAt: this.deps.now() } })
    return rules
  }

  async history(ecosystemId: string, customerId: string, page: PageParams) {
    const where = and(eq(points.ecosystemId, ecosystemId), eq(points.customerId, customerId))
    return listPage(this.deps.db, points, where, [desc(points.createdAt), desc(points.id)], page, pointsView)
  }

  async levels(db: Db, ecosystemId: string) {
    const rows = await db
      .select({ name: levels.name, minPoints: levels.minPoints })
      .from(levels)
      .where(eq(levels.ecosystemId, ecosystemId))
      .orderBy(asc(levels.minPoints))
    return rows.length ? rows : DEFAULT_LEVELS
  }

  /** Replaces the ecosystem's levels at once; levels are computed from totals, so everyone is re-levelled with it. */
  async setLevels(ecosystemId: string, list: { name: string; minPoints: number }[]) {
    const floors = new Set(list.map((l) => l.minPoints))
    if (floors.size !== list.length) throw new AppError(400, 'validation_failed', 'body: two levels have the same minPoints')
    if (!floors.has(0)) throw new AppError(400, 'validation_failed', 'body: one level must start at minPoints 0')
    await this.deps.db.transaction(async (tx) => {
      await tx.delete(levels).where(eq(levels.ecosystemId, ecosystemId))
      await tx.insert(levels).values(list.map((l) => ({ ecosystemId, ...l })))
    })
    return this.levels(this.deps.db, ecosystemId)
  }

  /**
   * The period's ranking: totals desc, then customer id (stable); `total` counts the ranked customers.
   * `desc nulls last` is the board index's own order (plain `desc` means nulls first and would sort).
   * Names and avatars come from the customer area's directory, for the page's customers only.
   */
  async leaderboard(ecosystemId: string, period: Period, page: PageParams, now: Date) {
    const bucket = bucketOf(period, now)
    const scope = and(eq(pointTotals.ecosystemId, ecosystemId), eq(pointTotals.period, period), eq(pointTotals.bucket, bucket))
    const [rows, [total], ladder] = await Promise.all([
      queryRows<{ customer_id: string; total: number; all_time: number }>(
        this.deps.db,
        sql`select t.customer_id, t.total, coalesce(a.total, 0) as all_time
            from (select ${pointTotals.customerId} as customer_id, ${pointTotals.total} as total from ${pointTotals} where ${scope}
                  order by ${pointTotals.total} desc nulls last, ${pointTotals.customerId} limit ${page.pageSize} offset ${page.offset}) t
            left join ${pointTotals} a on a.customer_id = t.customer_id and a.period = 'all_time' and a.bucket = ${at(bucketOf('all_time', now))}
            order by t.total desc, t.customer_id`,
      ),
      this.deps.db
        .select({ n: pointBoards.customers })
        .from(pointBoards)
        .where(and(eq(pointBoards.ecosystemId, ecosystemId), eq(pointBoards.period, period), eq(pointBoards.bucket, bucket))),
      this.levels(this.deps.db, ecosystemId),
    ])
    const profiles = await customerDirectory.profiles(
      this.deps.db,
      ecosystemId,
      rows.map((r) => r.customer_id),
    )
    const items = rows.flatMap((r) => {
      const who = profiles.get(r.customer_id)
      return who ? [{ userId: r.customer_id, name: who.name, avatarUrl: who.avatarUrl ?? '', totalPoints: r.total, level: levelFor(ladder, r.all_time) }] : []
    })
    return pageOf(items, total?.n ?? 0, page)
  }

  /** A customer's all-time total and rank (1 + the customers with more points, ties share a rank). */
  async standing(ecosystemId: string, customerId: string, now: Date) {
    const bucket = at(bucketOf('all_time', now))
    const [row] = await queryRows<{ total: number; rank: number }>(
      this.deps.db,
      sql`with mine as (select coalesce((select total from ${pointTotals} where customer_id = ${customerId} and period = 'all_time' and bucket = ${bucket}), 0) as total)
          select mine.total, 1 + (select count(*)::int from ${pointTotals} where ecosystem_id = ${ecosystemId} and period = 'all_time' and bucket = ${bucket} and total > mine.total) as rank
          from mine`,
    )
    return { totalPoints: row?.total ?? 0, rank: row?.rank ?? 1, level: levelFor(await this.levels(this.deps.db, ecosystemId), row?.total ?? 0) }
  }

  private async crossBadges(tx: Db, ecosystemId: string, customerId: string, criteria: Criteria, value: number): Promise<void> {
    const earned = await queryRows<{ badge_id: string; name: string; point_value: number }>(
      tx,
      sql`with won as (
            insert into ${userBadges} (ecosystem_id, customer_id, badge_id)
            select ${ecosystemId}, ${customerId}, id from ${badges}
            where ecosystem_id = ${ecosystemId} and criteria_type = ${criteria} and criteria_threshold <= ${value}
            on conflict (customer_id, badge_id) do nothing
            returning badge_id)
          select won.badge_id, b.name, b.point_value from won join ${badges} b on b.id = won.badge_id order by b.criteria_threshold`,
    )
    for (const badge of earned) {
      await this.events.emit(tx, badgeEarned, ecosystemId, { customerId, badgeId: badge.badge_id, name: badge.name })
      if (badge.point_value === 0) continue
      await this.award(tx, {
        ecosystemId,
        customerId,
        amount: badge.point_value,
        reason: `Badge earned: ${badge.name}`,
        sourceType: 'badge',
        sourceId: badge.badge_id,
      })
    }
  }
}

/** A time as a bound parameter of raw SQL (postgres.js takes no Date there). */
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`

/** The highest level whose inclusive floor the total reaches. */
export function levelFor(ladder: { name: string; minPoints: number }[], total: number): string {
  let name = ladder[0]?.name ?? ''
  for (const level of ladder) if (total >= level.minPoints) name = level.name
  return name
}
