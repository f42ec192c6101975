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

/** The routes under /usage. */
export interface UsageRoutes {
  storage: {
    /** Your storage quota and usage */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: UsageStorageQuota; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    customers: ((params: { userId: string | number }) => {
      /** A customer's storage quota and usage */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: UsageStorageQuota; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    })
    quotas: ((params: { userId: string | number }) => {
      /** Set a customer's quota in this ecosystem */
      put(body: StorageQuota, options?: RequestOptions<never>): Promise<Result<{ 200: UsageStorageQuotaRow; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Remove a customer's quota override */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** Quota overrides in the ecosystem, latest first */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: UsageStorageQuotaPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
}
