// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface MonitoredSite {
  id: string
  name: string
  url: string
  intervalMinutes: number
  expectedStatus: number
  keyword: string | null
  timeoutMs: number
  enabled: boolean
  failureThreshold: number
  alertEmails: string[]
  state: "unknown" | "up" | "down"
  stateChangedAt: string | null
  lastCheckedAt: string | null
  lastStatusCode: number | null
  lastLatencyMs: number | null
  lastError: string | null
  /** https: days until the server’s certificate expires (read even when it is not trusted) */
  tlsDaysLeft: number | null
  /** ISO 8601, UTC */
  nextCheckAt: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface MonitoredSitePage {
  items: MonitoredSite[]
  total: number
  page: number
  pageSize: number
}

export interface MonitoredSiteCreate {
  name: string
  /** http or https; its host is checked through the outbound address gate when saved (400 `validation_failed` for a private address, or a name resolving to one, unless MONITORED_SITES_PRIVATE_ADDRESSES=allow; link-local and metadata addresses always) and at every check, which connects to the address checked; redirects are answers, not followed */
  url: string
  /** How often it is checked */
  intervalMinutes: number
  /** The status a healthy answer has */
  expectedStatus?: number
  /** Text that must appear in the first 1 MiB of the body */
  keyword?: string | null
  /** No answer within this is a failed check */
  timeoutMs?: number
  /** false pauses the checks */
  enabled?: boolean
  /** Failed checks in a row that make the site `down` */
  failureThreshold?: number
  /** Addresses told of down and up besides the ecosystem’s admins and owners (who are told at their account address). Each gets an `account` notification e-mail with a one-click unsubscribe, and the send is in the messaging log */
  alertEmails?: string[]
}

export interface MonitoredSiteDetail {
  id: string
  name: string
  url: string
  intervalMinutes: number
  expectedStatus: number
  keyword: string | null
  timeoutMs: number
  enabled: boolean
  failureThreshold: number
  alertEmails: string[]
  state: "unknown" | "up" | "down"
  stateChangedAt: string | null
  lastCheckedAt: string | null
  lastStatusCode: number | null
  lastLatencyMs: number | null
  lastError: string | null
  /** https: days until the server’s certificate expires (read even when it is not trusted) */
  tlsDaysLeft: number | null
  /** ISO 8601, UTC */
  nextCheckAt: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  stats: {
    "24h": {
      checks: number
      /** Share of the time the site was up, to 0.01 %: each check’s result holds until the next check (the last until now), so an extra manual check weighs no more than the minutes it covers; null without checks */
      uptimePercent: number | null
      /** 95th percentile of the answer time of checks that got an answer */
      p95LatencyMs: number | null
    }
    "7d": {
      checks: number
      /** Share of the time the site was up, to 0.01 %: each check’s result holds until the next check (the last until now), so an extra manual check weighs no more than the minutes it covers; null without checks */
      uptimePercent: number | null
      /** 95th percentile of the answer time of checks that got an answer */
      p95LatencyMs: number | null
    }
    "30d": {
      checks: number
      /** Share of the time the site was up, to 0.01 %: each check’s result holds until the next check (the last until now), so an extra manual check weighs no more than the minutes it covers; null without checks */
      uptimePercent: number | null
      /** 95th percentile of the answer time of checks that got an answer */
      p95LatencyMs: number | null
    }
  }
}

/** A different `url` starts the site afresh (`state: "unknown"`); the same one sent again changes nothing */
export interface MonitoredSitePatch {
  name?: string
  /** http or https; its host is checked through the outbound address gate when saved (400 `validation_failed` for a private address, or a name resolving to one, unless MONITORED_SITES_PRIVATE_ADDRESSES=allow; link-local and metadata addresses always) and at every check, which connects to the address checked; redirects are answers, not followed */
  url?: string
  /** How often it is checked */
  intervalMinutes?: number
  /** The status a healthy answer has */
  expectedStatus?: number
  /** Text that must appear in the first 1 MiB of the body */
  keyword?: string | null
  /** No answer within this is a failed check */
  timeoutMs?: number
  /** false pauses the checks */
  enabled?: boolean
  /** Failed checks in a row that make the site `down` */
  failureThreshold?: number
  /** Addresses told of down and up besides the ecosystem’s admins and owners (who are told at their account address). Each gets an `account` notification e-mail with a one-click unsubscribe, and the send is in the messaging log */
  alertEmails?: string[]
}

export interface MonitoredSiteCheck {
  id: string
  siteId: string
  /** ISO 8601, UTC */
  checkedAt: string
  ok: boolean
  statusCode: number | null
  latencyMs: number | null
  error: string | null
  tlsDaysLeft: number | null
}

export interface MonitoredSiteCheckPage {
  items: MonitoredSiteCheck[]
  total: number
  page: number
  pageSize: number
}

/** The routes under /monitored_sites. */
export interface MonitoredSitesRoutes {
  sites: ((params: { id: string | number }) => {
    /** One site, with uptime % and p95 latency over 24 h, 7 and 30 days */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: MonitoredSiteDetail; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change a site */
    patch(body?: MonitoredSitePatch, options?: RequestOptions<never>): Promise<Result<{ 200: MonitoredSite; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Stop watching a site */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    checks: {
      /** Checks of a site, newest first (kept 31 days) */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: MonitoredSiteCheckPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
    check: {
      /** Check a site now */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: MonitoredSiteCheck; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** The ecosystem’s monitored sites, oldest first */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: MonitoredSitePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Watch a URL */
    post(body: MonitoredSiteCreate, options?: RequestOptions<never>): Promise<Result<{ 201: MonitoredSite; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
