// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface SystemHealth {
  status: "ok" | "degraded"
  database: "ok" | "down" | "stalled"
  /** Present when degraded, in the shape of every error answer */
  error?: {
    code: "database_unavailable" | "database_stalled"
    message: string
  }
}

export interface SystemLiveness {
  status: "ok"
}

export interface SystemReadiness {
  status: "ready" | "not_ready"
  checks: {
    database: "ok" | "down" | "stalled"
    migrations: "ok" | "pending" | "unknown"
    queue: "ok" | "stopped"
    shutdown: "running" | "draining"
  }
  /** Present when not ready, in the shape of every error answer: the first check that failed */
  error?: {
    code: "draining" | "database_unavailable" | "database_stalled" | "migrations_pending" | "queue_stopped"
    message: string
  }
}

/** The account that created the persona; null when it has no public profile (no slug) */
export interface PublicOwner {
  slug: string
  displayName: string | null
  avatarUrl: string | null
}

export interface PublicPersonaSummary {
  slug: string
  name: string
  description: string | null
  visibility: "public"
  /** ISO 8601, UTC */
  createdAt: string
  owner: PublicOwner | null
  /** The ecosystem the persona belongs to (pass it as ?ecosystem= when a slug is ambiguous) */
  ecosystemId: string
}

export interface PublicPersonaPage {
  items: PublicPersonaSummary[]
  total: number
  page: number
  pageSize: number
}

export interface PublicPersona {
  slug: string
  name: string
  description: string | null
  modelPrompt: string
  voice: string | null
  character: string | null
  examples: string | null
  visibility: "public" | "unlisted"
  /** ISO 8601, UTC */
  createdAt: string
  owner: PublicOwner | null
  /** The ecosystem the persona belongs to (pass it as ?ecosystem= when a slug is ambiguous) */
  ecosystemId: string
}

export interface PublicUserProfile {
  slug: string
  displayName: string | null
  avatarUrl: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** Public personas the user created, newest first (at most 100) */
  personas: PublicPersonaSummary[]
}

/** The routes under /health. */
export interface HealthRoutes {
  /** Liveness probe with a database check (503 when the database is down) */
  get(options?: RequestOptions<never>): Promise<Result<{ 200: SystemHealth; 400: ErrorBody; 503: SystemHealth }>>
  live: {
    /** Liveness: the process answers */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: SystemLiveness; 400: ErrorBody }>>
  }
  ready: {
    /** Readiness: send this replica traffic (503 when not) */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: SystemReadiness; 400: ErrorBody; 503: SystemReadiness }>>
  }
}

/** The routes under /metrics. */
export interface MetricsRoutes {
  /** Prometheus metrics (with METRICS_TOKEN) */
  get(options?: RequestOptions<never>): Promise<Result<{ 200: string; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody }>>
}

/** The routes under /public. */
export interface PublicRoutes {
  personas: ((params: { slug: string | number }) => {
    /** A public or unlisted persona by slug */
    get(options?: RequestOptions<{ ecosystem?: string }>): Promise<Result<{ 200: PublicPersona; 400: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Public personas, newest first */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; ecosystem?: string }>): Promise<Result<{ 200: PublicPersonaPage; 400: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  users: ((params: { slug: string | number }) => {
    /** The public profile of a user, by login slug */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: PublicUserProfile; 400: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  })
}
