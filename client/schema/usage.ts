// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface UsageStorageQuota {
  /** Per-user quota: the override, else the default (5 GiB unless configured) */
  quotaBytes: number
  /** Bytes of ready, non-deleted attachments */
  usageBytes: number
  /** max(0, quotaBytes - usageBytes) */
  availableBytes: number
}

export interface UsageStorageQuotaRow {
  /** The customer id */
  userId: string
  /** The ecosystem id the override is scoped to */
  ownerId: string
  quotaBytes: number
  updatedAt: string
}

export interface UsageStorageQuotaPage {
  items: UsageStorageQuotaRow[]
  total: number
  page: number
  pageSize: number
}

export interface StorageQuota {
  /** Total bytes this customer may keep (at most 2^53 − 1) */
  quotaBytes: number
}

export interface UsageOverviewStorage {
  /** Bytes of ready, non-deleted attachments of every customer and team member in the ecosystem (a member’s own uploads, e.g. from the console, count) */
  usedBytes: number
  /** The sum of the quotas of every customer and team member in the ecosystem (their override, else STORAGE_DEFAULT_QUOTA_BYTES) */
  quotaBytes: number
  /** Customers and team members using 90 % of their quota or more */
  customersNearQuota: number
}

export interface UsageOverviewDay {
  /** A UTC day, YYYY-MM-DD */
  day: string
  /** Customer sessions started (sign-ins, refresh-token sign-ups, support sessions) */
  signIns: number
  /** Sign-ins of the organization's team members (account sessions begun: the console, the API with a password); a member's sign-in counts in each ecosystem of the organization */
  memberSignIns: number
  /** Messages customers sent in chat */
  chatMessages: number
  /** E-mails and texts that left (sent or delivered) */
  messagesSent: number
  /** Webhook deliveries made that day that failed for good */
  webhookFailures: number
}

export interface UsageOverviewSiteDown {
  id: string
  name: string
  url: string
  /** ISO 8601, UTC */
  since: string | null
}

export interface UsageOverviewActivity {
  id: string
  customerId: string
  source: string
  action: string
  summary: string
  /** ISO 8601, UTC */
  createdAt: string
}

export interface UsageOverview {
  /** Customers of the ecosystem (the records the service keeps for team members and alert contacts are not counted) */
  customers: number
  storage: UsageOverviewStorage
  /** The last 7 UTC days, oldest first, today last (so far) */
  days: UsageOverviewDay[]
  /** Monitored sites down now, longest first */
  sitesDown: UsageOverviewSiteDown[]
  /** The 10 newest items of the customers’ site feeds, newest first */
  recent: UsageOverviewActivity[]
}

/** The routes under /usage. */
export interface UsageRoutes {
  storage: {
    /** Your storage quota and usage */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: UsageStorageQuota; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    customers: ((params: { userId: string | number }) => {
      /** A customer's storage quota and usage */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: UsageStorageQuota; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    })
    quotas: ((params: { userId: string | number }) => {
      /** Set a customer's quota in this ecosystem */
      put(body: StorageQuota, options?: RequestOptions<never>): Promise<Result<{ 200: UsageStorageQuotaRow; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
      /** Remove a customer's quota override */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }) & {
      /** Quota overrides in the ecosystem, latest first */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: UsageStorageQuotaPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }
  overview: {
    /** The ecosystem at a glance */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: UsageOverview; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
