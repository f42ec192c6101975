import { and, asc, count, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Deps } from '../../deps'
import type { Tenant } from '../../platform/tenancy'
import { messages } from '../chat/schema'
import { customers, customerSessions } from '../customer/schema'
import { realCustomers } from '../customer/service'
import { deliveries } from '../integrations/schema'
import { sendLog } from '../messaging/schema'
import { sites } from '../monitored_sites/schema'
import { feedItems } from '../site/schema'
import { storageQuotas, storageUsage } from '../storage/schema'

const DAYS = 7
const RECENT = 10

/** The UTC day of a time column, as `YYYY-MM-DD`. */
const dayOf = (column: PgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`

/**
 * An ecosystem at a glance, for its admins' console: customers, storage against quota, the last 7
 * days of sign-ins, chat messages, messages sent and webhook failures, sites down, recent activity.
 * Read from the areas' tables, each count one grouped query.
 */
export class OverviewService {
  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'now'>) {}

  async of(tenant: Tenant) {
    const eco = tenant.ecosystemId
    const now = this.deps.now()
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
    const since = new Date(today - (DAYS - 1) * 86_400_000)
    const days = Array.from({ length: DAYS }, (_, i) => new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10))
    const db = this.deps.db
    const quota = sql`coalesce(${storageQuotas.quotaBytes}, ${this.deps.config.storage.defaultQuotaBytes})`
    const [storage, signIns, chats, sent, failures, down, recent] = await Promise.all([
      db
        .select({
          customers: count(),
          usedBytes: sql<string>`coalesce(sum(${storageUsage.usedBytes}), 0)`,
          quotaBytes: sql<string>`coalesce(sum(${quota}), 0)`,
          near: sql<string>`count(*) filter (where coalesce(${storageUsage.usedBytes}, 0) >= 0.9 * ${quota})`,
        })
        .from(customers)
        .leftJoin(storageUsage, and(eq(storageUsage.ecosystemId, customers.ecosystemId), eq(storageUsage.customerId, customers.id)))
        .leftJoin(storageQuotas, and(eq(storageQuotas.ecosystemId, customers.ecosystemId), eq(storageQuotas.customerId, customers.id)))
        .where(realCustomers(eco)),
      db
        .select({ day: dayOf(customerSessions.createdAt), n: count() })
        .from(customerSessions)
        .innerJoin(customers, eq(customers.id, customerSessions.subjectId))
        .where(and(realCustomers(eco), gte(customerSessions.createdAt, since)))
        .groupBy(dayOf(customerSessions.createdAt)),
      db
        .select({ day: dayOf(messages.createdAt), n: count() })
        .from(messages)
        .where(and(eq(messages.ownerId, eco), eq(messages.role, 'user'), gte(messages.createdAt, since)))
        .groupBy(dayOf(messages.createdAt)),
      db
        .select({ day: dayOf(sendLog.createdAt), n: count() })
        .from(sendLog)
        .where(and(eq(sendLog.ecosystemId, eco), inArray(sendLog.status, ['sent', 'delivered']), isNull(sendLog.deletedAt), gte(sendLog.createdAt, since)))
        .groupBy(dayOf(sendLog.createdAt)),
      db
        .select({ day: dayOf(deliveries.createdAt), n: count() })
        .from(deliveries)
        .where(and(eq(deliveries.ecosystemId, eco), eq(deliveries.status, 'failed'), gte(deliveries.createdAt, since)))
        .groupBy(dayOf(deliveries.createdAt)),
      db
        .select({ id: sites.id, name: sites.name, url: sites.url, since: sites.stateChangedAt })
        .from(sites)
        .where(and(eq(sites.ecosystemId, eco), eq(sites.state, 'down'), eq(sites.enabled, true)))
        .orderBy(asc(sites.stateChangedAt)),
      db
        .select({
          id: feedItems.id,
          customerId: feedItems.customerId,
          source: feedItems.source,
          action: feedItems.action,
          summary: feedItems.summary,
          createdAt: feedItems.createdAt,
        })
        .from(feedItems)
        .where(eq(feedItems.ecosystemId, eco))
        .orderBy(desc(feedItems.createdAt), desc(feedItems.id))
        .limit(RECENT),
    ])
    const byDay = (rows: { day: string; n: number }[]) => new Map(rows.map((r) => [r.day, Number(r.n)]))
    const [s, c, m, f] = [byDay(signIns), byDay(chats), byDay(sent), byDay(failures)]
    const totals = storage[0]!
    return {
      customers: Number(totals.customers),
      storage: { usedBytes: Number(totals.usedBytes), quotaBytes: Number(totals.quotaBytes), customersNearQuota: Number(totals.near) },
      days: days.map((day) => ({
        day,
        signIns: s.get(day) ?? 0,
        chatMessages: c.get(day) ?? 0,
        messagesSent: m.get(day) ?? 0,
        webhookFailures: f.get(day) ?? 0,
      })),
      sitesDown: down.map((d) => ({ ...d, since: d.since?.toISOString() ?? null })),
      recent: recent.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    }
  }
}
