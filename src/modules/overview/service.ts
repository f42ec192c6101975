import type { Deps } from '../../deps'
import type { Tenant } from '../../platform/tenancy'
import { accountDirectory } from '../auth/directory'
import { userMessagesPerDay } from '../chat/service'
import { customerDirectory } from '../customer/directory'
import { failedDeliveriesPerDay } from '../integrations/service'
import { sentPerDay } from '../messaging/service'
import { sitesDown } from '../monitored_sites/service'
import { recentActivity } from '../site/service'
import { storageReadings } from '../storage/service'
import { memberIdsOf } from '../team/service'

const DAYS = 7
const RECENT = 10

/**
 * An ecosystem at a glance, for its admins' console: customers, storage against quota, the last 7
 * days of sign-ins, chat messages, messages sent and webhook failures, sites down, recent activity.
 * Storage and sign-ins count the team's members too: what an admin uploads or signs in to the console
 * for is part of the ecosystem's use, and the console's own Storage page shows the member's bytes.
 * Each figure is read by the area that owns it (its read for the overview, one grouped query), all
 * at once.
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
    const [customers, storage, signIns, memberSignIns, chats, sent, failures, down, recent] = await Promise.all([
      customerDirectory.realCount(db, eco),
      storageReadings.totals(db, eco, customerDirectory.storingIds(eco), this.deps.config.storage.defaultQuotaBytes),
      customerDirectory.signInsPerDay(db, eco, since),
      accountDirectory.signInsPerDay(db, memberIdsOf(tenant.organizationId), since),
      userMessagesPerDay(db, eco, since),
      sentPerDay(db, eco, since),
      failedDeliveriesPerDay(db, eco, since),
      sitesDown(db, eco),
      recentActivity(db, eco, RECENT),
    ])
    const byDay = (rows: { day: string; n: number }[]) => new Map(rows.map((r) => [r.day, Number(r.n)]))
    const [s, t, c, m, f] = [byDay(signIns), byDay(memberSignIns), byDay(chats), byDay(sent), byDay(failures)]
    return {
      customers,
      storage,
      days: days.map((day) => ({
        day,
        signIns: s.get(day) ?? 0,
        memberSignIns: t.get(day) ?? 0,
        chatMessages: c.get(day) ?? 0,
        messagesSent: m.get(day) ?? 0,
        webhookFailures: f.get(day) ?? 0,
      })),
      sitesDown: down.map((d) => ({ ...d, since: d.since?.toISOString() ?? null })),
      recent: recent.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    }
  }
}
