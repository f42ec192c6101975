import { boolean, index, integer, jsonb, pgSchema, text, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'
import { tenantColumns } from '../customer/schema'

export const monitoredSitesSchema = pgSchema('monitored_sites')

export type SiteState = 'unknown' | 'up' | 'down'

/** URLs an ecosystem's admins watch; `nextCheckAt` is when the scheduler next queues a check. */
export const sites = monitoredSitesSchema.table(
  'sites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: tenantColumns.ecosystemId(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    intervalMinutes: integer('interval_minutes').notNull(),
    expectedStatus: integer('expected_status').notNull().default(200),
    keyword: text('keyword'),
    timeoutMs: integer('timeout_ms').notNull().default(10_000),
    enabled: boolean('enabled').notNull().default(true),
    state: text('state').$type<SiteState>().notNull().default('unknown'),
    /** Failed checks in a row; `failureThreshold` of them make the site `down`. */
    failures: integer('failures').notNull().default(0),
    failureThreshold: integer('failure_threshold').notNull().default(2),
    /** Outside addresses told of down and up besides the ecosystem's admins and owners. */
    alertEmails: jsonb('alert_emails').$type<string[]>().notNull().default([]),
    nextCheckAt: at('next_check_at').notNull().defaultNow(),
    lastCheckedAt: at('last_checked_at'),
    lastStatusCode: integer('last_status_code'),
    lastLatencyMs: integer('last_latency_ms'),
    lastError: text('last_error'),
    tlsDaysLeft: integer('tls_days_left'),
    stateChangedAt: at('state_changed_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('sites_ecosystem_idx').on(t.ecosystemId, t.createdAt), index('sites_due_idx').on(t.nextCheckAt)],
)

/** One check of one site; kept 31 days (the longest stats window). */
export const checks = monitoredSitesSchema.table(
  'checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    checkedAt: at('checked_at').notNull().defaultNow(),
    ok: boolean('ok').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms'),
    error: text('error'),
    tlsDaysLeft: integer('tls_days_left'),
  },
  (t) => [index('checks_site_time_idx').on(t.siteId, t.checkedAt.desc()), index('checks_time_idx').on(t.checkedAt)],
)
