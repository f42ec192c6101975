import { t } from 'elysia'
import { Timestamp } from '../../platform/crud/model'
import { Int } from '../../platform/numbers'
import { paged } from '../../platform/paging'

const NullableInt = t.Union([Int(), t.Null()])
const NullableString = t.Union([t.String(), t.Null()])

const siteFields = {
  name: t.String({ minLength: 1, maxLength: 200 }),
  url: t.String({
    maxLength: 2000,
    description:
      'http or https; its host is checked through the outbound address gate when saved (400 `validation_failed` for a private address, or a name resolving to one, unless MONITORED_SITES_PRIVATE_ADDRESSES=allow; link-local and metadata addresses always) and at every check, which connects to the address checked; redirects are answers, not followed',
  }),
  intervalMinutes: Int({ minimum: 1, maximum: 60, description: 'How often it is checked' }),
  expectedStatus: t.Optional(Int({ minimum: 100, maximum: 599, default: 200, description: 'The status a healthy answer has' })),
  keyword: t.Optional(t.Union([t.String({ minLength: 1, maxLength: 200 }), t.Null()], { description: 'Text that must appear in the first 1 MiB of the body' })),
  timeoutMs: t.Optional(Int({ minimum: 100, maximum: 30_000, default: 10_000, description: 'No answer within this is a failed check' })),
  enabled: t.Optional(t.Boolean({ default: true, description: 'false pauses the checks' })),
  failureThreshold: t.Optional(Int({ minimum: 1, maximum: 10, default: 2, description: 'Failed checks in a row that make the site `down`' })),
  alertEmails: t.Optional(
    t.Array(t.String({ format: 'email', maxLength: 320 }), {
      maxItems: 10,
      description:
        'Addresses told of down and up besides the ecosystem’s admins and owners (who are told at their account address). Each gets an `account` notification e-mail with a one-click unsubscribe, and the send is in the messaging log',
    }),
  ),
}
export const SiteCreate = t.Object(siteFields, {
  title: 'MonitoredSiteCreate',
  examples: [
    {
      name: 'Shop',
      url: 'https://shop.example.com/health',
      intervalMinutes: 5,
      expectedStatus: 200,
      keyword: 'ok',
      failureThreshold: 2,
      alertEmails: ['ops@example.com'],
    },
  ],
})
export const SitePatch = t.Partial(t.Object(siteFields), {
  title: 'MonitoredSitePatch',
  examples: [{ intervalMinutes: 1, enabled: true }],
  description: 'A different `url` starts the site afresh (`state: "unknown"`); the same one sent again changes nothing',
})

const siteProperties = {
  id: t.String(),
  name: t.String(),
  url: t.String(),
  intervalMinutes: Int(),
  expectedStatus: Int(),
  keyword: NullableString,
  timeoutMs: Int(),
  enabled: t.Boolean(),
  failureThreshold: Int(),
  alertEmails: t.Array(t.String()),
  state: t.Union([t.Literal('unknown'), t.Literal('up'), t.Literal('down')], {
    description:
      '`down` after `failureThreshold` failed checks in a row, `up` after a good one; `unknown` until then. Each change between up and down writes a feed item and an `account` notification (e-mailed, SMS where a number is set, as each recipient’s preferences say) for the ecosystem’s admins and owners and the `alertEmails`, and the webhook event `monitored_site.down` / `monitored_site.up`',
  }),
  stateChangedAt: NullableString,
  lastCheckedAt: NullableString,
  lastStatusCode: NullableInt,
  lastLatencyMs: NullableInt,
  lastError: NullableString,
  tlsDaysLeft: t.Union([Int(), t.Null()], { description: 'https: days until the server’s certificate expires (read even when it is not trusted)' }),
  nextCheckAt: Timestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
}
const SITE_EXAMPLE = {
  id: 'e8d7c6b5-a493-4827-9160-f5e4d3c2b1a0',
  name: 'Shop',
  url: 'https://shop.example.com/health',
  intervalMinutes: 5,
  expectedStatus: 200,
  keyword: 'ok',
  timeoutMs: 10000,
  enabled: true,
  failureThreshold: 2,
  alertEmails: ['ops@example.com'],
  state: 'up',
  stateChangedAt: '2026-11-26T09:05:00.000Z',
  lastCheckedAt: '2026-11-26T09:25:00.000Z',
  lastStatusCode: 200,
  lastLatencyMs: 142,
  lastError: null,
  tlsDaysLeft: 61,
  nextCheckAt: '2026-11-26T09:30:00.000Z',
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:00.000Z',
}
export const MonitoredSite = t.Object(siteProperties, { title: 'MonitoredSite', examples: [SITE_EXAMPLE] })
export const MonitoredSitePage = paged(MonitoredSite, 'MonitoredSitePage')

const Window = t.Object({
  checks: Int(),
  uptimePercent: t.Union([t.Number(), t.Null()], {
    description:
      'Share of the time the site was up, to 0.01 %: each check’s result holds until the next check (the last until now), so an extra manual check weighs no more than the minutes it covers; null without checks',
  }),
  p95LatencyMs: t.Union([Int(), t.Null()], { description: '95th percentile of the answer time of checks that got an answer' }),
})
export const MonitoredSiteDetail = t.Object(
  { ...siteProperties, stats: t.Object({ '24h': Window, '7d': Window, '30d': Window }) },
  {
    title: 'MonitoredSiteDetail',
    examples: [
      {
        ...SITE_EXAMPLE,
        stats: {
          '24h': { checks: 5, uptimePercent: 100, p95LatencyMs: 168 },
          '7d': { checks: 5, uptimePercent: 100, p95LatencyMs: 168 },
          '30d': { checks: 5, uptimePercent: 100, p95LatencyMs: 168 },
        },
      },
    ],
  },
)

export const SiteCheck = t.Object(
  {
    id: t.String(),
    siteId: t.String(),
    checkedAt: Timestamp,
    ok: t.Boolean(),
    statusCode: NullableInt,
    latencyMs: NullableInt,
    error: NullableString,
    tlsDaysLeft: NullableInt,
  },
  {
    title: 'MonitoredSiteCheck',
    examples: [
      {
        id: 'f9e8d7c6-b5a4-4938-8271-605f4e3d2c1b',
        siteId: 'e8d7c6b5-a493-4827-9160-f5e4d3c2b1a0',
        checkedAt: '2026-11-26T09:25:00.000Z',
        ok: true,
        statusCode: 200,
        latencyMs: 142,
        error: null,
        tlsDaysLeft: 61,
      },
    ],
  },
)
export const SiteCheckPage = paged(SiteCheck, 'MonitoredSiteCheckPage')
