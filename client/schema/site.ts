// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface SystemVersion {
  name: string
  /** Version from package.json */
  version: string
  /** Git commit of the build, when known (GIT_COMMIT or the checkout) */
  commit: string | null
  /** e.g. "bun 1.4.5" */
  runtime: string
  database: "pglite" | "postgres"
  /** pgvector available (HNSW); false = exact-scan fallback */
  vector: boolean
}

export interface SiteService {
  slug: string
  kind: string
  enabled: boolean
  /** Names of the configured keys; values, secret or not, are never returned */
  configKeys: string[]
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface SiteServiceUpsert {
  /** smtp, twilio, openai or webhook */
  kind: string
  enabled: boolean
  /** Provider settings (see the kinds); stored sealed, never returned */
  config: {
    [key: string]: unknown
  }
}

export interface SiteFeedItem {
  id: string
  customerId: string
  /** The ecosystem id */
  ownerId: string
  /** The area: `community`, `storage`, `persona_memory`, … */
  source: string
  entityType: string
  entityId?: string | null
  action: string
  /** One line a person reads */
  summary: string
  /** Who caused it, when someone did */
  actorId?: string | null
  /** JSON text with details */
  metadata?: string | null
  isRead: boolean
  createdAt: string
  deletedAt?: string | null
}

export interface SiteFeedPage {
  items: SiteFeedItem[]
  total: number
  page: number
  pageSize: number
}

export interface SiteFeedUnreadCount {
  count: number
}

export interface SiteFeedReadAllResult {
  updated: number
}

/** Server-sent events (text/event-stream) */
export type SiteFeedStreamEvent = {
  event: "item"
  /** Send it back as Last-Event-ID to resume */
  id: string
  data: SiteFeedItem
} | {
  event: "ping"
  data: Record<string, never>
} | {
  event: "shutdown"
  /** Milliseconds to wait before reconnecting */
  retry: number
  data: {
    message: string
  }
}

/** The routes under /site. */
export interface SiteRoutes {
  version: {
    /** Build and version information */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: SystemVersion; 400: ErrorBody; 429: ErrorBody }>>
  }
  services: ((params: { slug: string | number }) => {
    /** One provider setting */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: SiteService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Create or replace a provider setting */
    put(body: SiteServiceUpsert, options?: RequestOptions<never>): Promise<Result<{ 200: SiteService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete a provider setting */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** The ecosystem's provider settings */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: SiteService[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  feed: ((params: { id: string | number }) => {
    read: {
      /** Mark an item read */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: SiteFeedItem; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** Activity items, newest first */
    get(options?: RequestOptions<{ unread?: boolean; source?: string; page?: number; pageSize?: number }>): Promise<Result<{ 200: SiteFeedPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    "unread-count": {
      /** How many items are unread */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: SiteFeedUnreadCount; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
    "read-all": {
      /** Mark every item read */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: SiteFeedReadAllResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
    stream: {
      /** New items, live */
      get(options?: RequestOptions<{ ticket?: string }>): Promise<Result<{ 200: AsyncGenerator<SiteFeedStreamEvent>; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }
}
