import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { defineQueueHandler, type QueueHandler } from '../../platform/queue'
import { type Db, queryRows } from '../../platform/db'
import { assertTenantHost, tenantUrl } from '../../platform/outbound'
import { listPage, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import type { EventBus } from '../../platform/events'
import { siteDown, siteUp } from './events'
import { Prober, type ProbeResult } from './probe'
import { checks, type SiteState, sites } from './schema'
import { monitoredSitesError } from './errors'

const JOB = 'monitored-site-check'
/** Sites queued per scheduler run (each minute). */
const DISPATCH_BATCH = 500
/** How early a check may run: the scheduler's minute tick can come a little before a due time. */
const DUE_EARLY = sql`interval '2 seconds'`
export const CHECK_RETENTION_DAYS = 31
const WINDOWS = { '24h': 1, '7d': 7, '30d': 30 } as const

type Site = typeof sites.$inferSelect
type Check = typeof checks.$inferSelect

export interface SiteInput {
  name: string
  url: string
  intervalMinutes: number
  expectedStatus?: number
  keyword?: string | null
  timeoutMs?: number
  enabled?: boolean
  failureThreshold?: number
  alertEmails?: string[]
}

/** Each address once, as written (compared without case). */
const distinctEmails = (emails: string[]) => [...new Map(emails.map((e) => [e.toLowerCase(), e])).values()]

const siteView = (s: Site) => ({
  id: s.id,
  name: s.name,
  url: s.url,
  intervalMinutes: s.intervalMinutes,
  expectedStatus: s.expectedStatus,
  keyword: s.keyword,
  timeoutMs: s.timeoutMs,
  enabled: s.enabled,
  failureThreshold: s.failureThreshold,
  alertEmails: s.alertEmails,
  state: s.state,
  stateChangedAt: s.stateChangedAt?.toISOString() ?? null,
  lastCheckedAt: s.lastCheckedAt?.toISOString() ?? null,
  lastStatusCode: s.lastStatusCode,
  lastLatencyMs: s.lastLatencyMs,
  lastError: s.lastError,
  tlsDaysLeft: s.tlsDaysLeft,
  nextCheckAt: s.nextCheckAt.toISOString(),
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
})
const checkView = (c: Check) => ({
  id: c.id,
  siteId: c.siteId,
  checkedAt: c.checkedAt.toISOString(),
  ok: c.ok,
  statusCode: c.statusCode,
  latencyMs: c.latencyMs,
  error: c.error,
  tlsDaysLeft: c.tlsDaysLeft,
})
const notFound = () => monitoredSitesError(404, 'not_found', 'No such monitored site in this ecosystem')

/**
 * Monitored sites: URLs an ecosystem's admins watch. A scheduler queues each due site once per due
 * time (its row moves on in the queuing transaction; one queued or running check per site); a
 * check's outcome, the site's new state and, on a change, the admins' feed items, notifications and
 * the webhook event are written in one transaction.
 */
export class MonitoredSitesService {
  private readonly prober: Prober

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'now' | 'queue' | 'shutdown' | 'metrics'>,
    private readonly events: Pick<EventBus, 'emit'>,
  ) {
    this.prober = new Prober(deps.config.monitoredSites.privateAddresses, deps.now, undefined, deps.metrics)
  }

  /** The queue job that runs a check (the module's manifest registers it). */
  queueHandlers(): QueueHandler[] {
    return [
      defineQueueHandler<{ siteId: string }>({
        name: JOB,
        // A check the server's stop cuts short records nothing and fails the job; the site is checked again at its next due time.
        handle: (job) => this.check(job.siteId, this.deps.shutdown.signal).then(() => undefined),
        parallel: true,
        // A check that could not run is not retried: the next due time checks again.
        options: { policy: 'exclusive', retryLimit: 0 },
      }),
    ]
  }

  async list(tenant: Tenant, page: PageParams) {
    const where = eq(sites.ecosystemId, tenant.ecosystemId)
    return listPage(this.deps.db, sites, where, [asc(sites.createdAt), asc(sites.id)], page, siteView)
  }

  /** One site with its uptime and p95 latency over the last 24 h, 7 and 30 days. */
  async get(tenant: Tenant, id: string) {
    const site = await this.site(tenant, id)
    return { ...siteView(site), stats: await this.stats(site.id) }
  }

  async create(tenant: Tenant, input: SiteInput) {
    await this.checkUrl(input.url)
    const [row] = await this.deps.db
      .insert(sites)
      .values({ ecosystemId: tenant.ecosystemId, ...input, keyword: input.keyword || null, alertEmails: distinctEmails(input.alertEmails ?? []) })
      .returning()
    return siteView(row!)
  }

  async update(tenant: Tenant, id: string, patch: Partial<SiteInput>) {
    if (patch.url !== undefined) await this.checkUrl(patch.url)
    const now = this.deps.now()
    const at = sql`${now.toISOString()}::timestamptz`
    // A different address (the same one sent again is no change) starts the site afresh, and a new
    // address or interval is checked at the next scheduler run; both decided against the stored row.
    const moved = patch.url !== undefined ? sql`${sites.url} is distinct from ${patch.url}` : null
    const [row] = await this.deps.db
      .update(sites)
      .set({
        ...patch,
        ...(patch.keyword !== undefined ? { keyword: patch.keyword || null } : {}),
        ...(patch.alertEmails !== undefined ? { alertEmails: distinctEmails(patch.alertEmails) } : {}),
        ...(patch.intervalMinutes !== undefined
          ? { nextCheckAt: now }
          : moved
            ? { nextCheckAt: sql`case when ${moved} then ${at} else ${sites.nextCheckAt} end` }
            : {}),
        ...(moved
          ? {
              state: sql<SiteState>`case when ${moved} then 'unknown' else ${sites.state} end`,
              failures: sql<number>`case when ${moved} then 0 else ${sites.failures} end`,
              stateChangedAt: sql<Date | null>`case when ${moved} then null else ${sites.stateChangedAt} end`,
            }
          : {}),
        updatedAt: now,
      })
      .where(and(eq(sites.ecosystemId, tenant.ecosystemId), eq(sites.id, id)))
      .returning()
    if (!row) throw notFound()
    return siteView(row)
  }

  /** The outside addresses a site's alerts also go to (none when the site is gone). */
  async alertEmails(db: Db, ecosystemId: string, siteId: string): Promise<string[]> {
    const [row] = await db
      .select({ alertEmails: sites.alertEmails })
      .from(sites)
      .where(and(eq(sites.ecosystemId, ecosystemId), eq(sites.id, siteId)))
    return row?.alertEmails ?? []
  }

  async remove(tenant: Tenant, id: string) {
    const gone = await this.deps.db
      .delete(sites)
      .where(and(eq(sites.ecosystemId, tenant.ecosystemId), eq(sites.id, id)))
      .returning({ id: sites.id })
    if (!gone[0]) throw notFound()
  }

  async checks(tenant: Tenant, id: string, page: PageParams) {
    await this.site(tenant, id)
    const where = eq(checks.siteId, id)
    return listPage(this.deps.db, checks, where, [desc(checks.checkedAt), desc(checks.id)], page, checkView)
  }

  /** Checks the site now (an admin's "check now"), counted like a scheduled check. */
  async checkNow(tenant: Tenant, id: string) {
    const site = await this.site(tenant, id)
    const check = await this.check(site.id)
    // Deleted while it was being checked.
    if (!check) throw notFound()
    return checkView(check)
  }

  /**
   * One check of one site: probe, then record it and the state it leads to. Null when the site is
   * gone. With `stop`, a probe still waiting for the site when it aborts throws ProbeStopped.
   */
  async check(siteId: string, stop?: AbortSignal): Promise<Check | null> {
    const [site] = await this.deps.db.select().from(sites).where(eq(sites.id, siteId))
    if (!site) return null
    const result = await this.prober.probe(site, stop)
    return this.record(siteId, result)
  }

  private async record(siteId: string, result: ProbeResult): Promise<Check | null> {
    const now = this.deps.now()
    return this.deps.db.transaction(async (tx) => {
      const [site] = await tx.select().from(sites).where(eq(sites.id, siteId)).for('update')
      if (!site) return null
      const [check] = await tx
        .insert(checks)
        .values({ siteId, checkedAt: now, ...result })
        .returning()
      const failures = result.ok ? 0 : site.failures + 1
      const state: SiteState = result.ok ? 'up' : failures >= site.failureThreshold ? 'down' : site.state
      const changed = state !== site.state
      await tx
        .update(sites)
        .set({
          failures,
          state,
          ...(changed ? { stateChangedAt: now } : {}),
          lastCheckedAt: now,
          lastStatusCode: result.statusCode,
          lastLatencyMs: result.latencyMs,
          lastError: result.error,
          tlsDaysLeft: result.tlsDaysLeft,
        })
        .where(eq(sites.id, siteId))
      // Nothing changed for anyone when a new site is first seen up.
      if (changed && !(site.state === 'unknown' && state === 'up')) await this.announce(tx, site, state, result)
      return check!
    })
  }

  private async announce(tx: Db, site: Site, state: SiteState, result: ProbeResult) {
    const data = { siteId: site.id, name: site.name, url: site.url, statusCode: result.statusCode }
    if (state === 'down') await this.events.emit(tx, siteDown, site.ecosystemId, { ...data, error: result.error, failures: site.failures + 1 })
    else await this.events.emit(tx, siteUp, site.ecosystemId, data)
  }

  private async stats(siteId: string) {
    const since = (days: number) => sql`${new Date(this.deps.now().getTime() - days * 86_400_000).toISOString()}::timestamptz`
    // Each check's result holds from its time until the next check (the last one until now).
    const columns = Object.entries(WINDOWS).map(
      ([key, days]) => sql`
        count(*) filter (where checked_at >= ${since(days)})::int as "${sql.raw(key)}_checks",
        count(*) filter (where ok and checked_at >= ${since(days)})::int as "${sql.raw(key)}_ok",
        coalesce(sum(extract(epoch from held)) filter (where checked_at >= ${since(days)}), 0)::float8 as "${sql.raw(key)}_seconds",
        coalesce(sum(extract(epoch from held)) filter (where ok and checked_at >= ${since(days)}), 0)::float8 as "${sql.raw(key)}_up",
        percentile_cont(0.95) within group (order by latency_ms) filter (where status_code is not null and checked_at >= ${since(days)}) as "${sql.raw(key)}_p95"`,
    )
    const now = sql`${this.deps.now().toISOString()}::timestamptz`
    const [row] = await queryRows<Record<string, number | string | null>>(
      this.deps.db,
      sql`with held as (
            select ok, status_code, latency_ms, checked_at, greatest(coalesce(lead(checked_at) over (order by checked_at, id), ${now}), checked_at) - checked_at as held
            from ${checks} where site_id = ${siteId} and checked_at >= ${since(WINDOWS['30d'])})
          select ${sql.join(columns, sql`, `)} from held`,
    )
    return Object.fromEntries(
      Object.keys(WINDOWS).map((key) => {
        const total = Number(row?.[`${key}_checks`] ?? 0)
        const seconds = Number(row?.[`${key}_seconds`] ?? 0)
        // Checks that cover no time yet (all at this instant) count one each.
        const share = seconds > 0 ? Number(row?.[`${key}_up`]) / seconds : Number(row?.[`${key}_ok`]) / total
        const p95 = row?.[`${key}_p95`]
        return [
          key,
          {
            checks: total,
            uptimePercent: total === 0 ? null : Math.round(share * 10_000) / 100,
            p95LatencyMs: p95 === null || p95 === undefined ? null : Math.round(Number(p95)),
          },
        ]
      }),
    ) as Record<keyof typeof WINDOWS, { checks: number; uptimePercent: number | null; p95LatencyMs: number | null }>
  }

  /** http(s), and a host the outbound gate allows now (a name is resolved; each check resolves it again). */
  private async checkUrl(url: string) {
    const parsed = tenantUrl(url)
    await assertTenantHost('url', parsed.hostname, this.deps.config.monitoredSites.privateAddresses, 'MONITORED_SITES_PRIVATE_ADDRESSES')
  }

  private async site(tenant: Tenant, id: string) {
    const [row] = await this.deps.db
      .select()
      .from(sites)
      .where(and(eq(sites.ecosystemId, tenant.ecosystemId), eq(sites.id, id)))
    if (!row) throw notFound()
    return row
  }
}

/**
 * Queues a check of every enabled site that is due and moves its next due time on, in the caller's
 * transaction, and the queue holds at most one check per site (queued or running). A site row
 * locked elsewhere (its check recording a result, another replica dispatching) is waited for, not
 * skipped: it is due again or not once that commits, and skipping it lost that minute's check. Returns how many were queued. The `check-sites` job runs it.
 *
 * Due times keep their own beat: the next is the previous plus the interval, not the time of this
 * run (a run a few milliseconds early would otherwise find a 1-minute site not yet due and skip a
 * minute), and a site is due up to DUE_EARLY before its time. After a pause (no replica running)
 * it is checked once and its beat moves to the first time still ahead: no burst of checks to catch up.
 */
export async function dispatchDueChecks(deps: Pick<Deps, 'queue' | 'now'>, tx: Db): Promise<number> {
  const now = sql`(${deps.now().toISOString()}::timestamptz + ${DUE_EARLY})`
  const dueNow = tx
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.enabled, true), lte(sites.nextCheckAt, now)))
    .orderBy(asc(sites.nextCheckAt))
    .limit(DISPATCH_BATCH)
    .for('update')
  const period = sql`(${sites.intervalMinutes} * interval '1 minute')`
  const periodsPast = sql`floor(extract(epoch from ${now} - ${sites.nextCheckAt}) / (${sites.intervalMinutes} * 60))`
  const due = await tx
    .update(sites)
    .set({ nextCheckAt: sql`${sites.nextCheckAt} + ${period} * (${periodsPast} + 1)` })
    .where(inArray(sites.id, dueNow))
    .returning({ id: sites.id })
  for (const site of due) await deps.queue.send(tx, JOB, { siteId: site.id }, { singletonKey: site.id })
  return due.length
}

/** For the overview: the ecosystem's enabled sites that are down, longest down first. */
export function sitesDown(db: Db, ecosystemId: string) {
  return db
    .select({ id: sites.id, name: sites.name, url: sites.url, since: sites.stateChangedAt })
    .from(sites)
    .where(and(eq(sites.ecosystemId, ecosystemId), eq(sites.state, 'down'), eq(sites.enabled, true)))
    .orderBy(asc(sites.stateChangedAt))
}
