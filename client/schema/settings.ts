// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface SystemBackup {
  id: string
  status: "running" | "complete" | "failed" | "missing"
  sizeBytes: number | null
  /** Encrypted with BACKUP_ENCRYPTION_KEY: `verify` and `restore` need the key */
  encrypted: boolean
  /** Why it failed */
  error: string | null
  /** The platform admin who asked for it (null: the schedule, or an archive found in DATA_DIR/backups) */
  createdBy: string | null
  createdAt: string
  completedAt: string | null
  /** This instance was restored from this backup (`npx ecobase restore`), at this time */
  restoredAt: string | null
}

export interface SystemBackupPage {
  items: SystemBackup[]
  total: number
  page: number
  pageSize: number
}

export interface SystemBackupSettings {
  /** The service backs itself up: always embedded; with DATABASE_URL when pg_dump is on the server’s PATH */
  available: boolean
  /** BACKUP_SCHEDULE, a cron pattern; null: only on request */
  schedule: string | null
  /** BACKUP_KEEP: complete backups kept, and failed ones as many */
  keep: number
  target: "local" | "s3"
  /** BACKUP_ENCRYPTION_KEY is set: new archives are encrypted */
  encrypted: boolean
  /** When the newest complete backup finished; null: none yet */
  lastCompleteAt: string | null
  lastCompleteAgeSeconds: number | null
}

export interface AuthMethodSetting {
  method: string
  enabled: boolean
}

export interface AuthMethodSettingUpdate {
  enabled: boolean
}

export interface AuditActor {
  type: "user" | "customer" | "api_token" | "system"
  /** The account, customer, API token or job; null for a caller not identified (a failed sign-in) */
  id: string | null
  /** For `api_token`: the account the token belongs to */
  userId?: string
}

export interface AuditTarget {
  /** What was changed, e.g. `user`, `webhook`, `site_service`, `team_member`, `customer` */
  type: string
  /** Its id (or name, e.g. a site service slug); null when there is none */
  id: string | null
}

export interface AuditEvent {
  id: string
  /** ISO 8601, UTC */
  at: string
  actor: AuditActor
  /** The ecosystem the change belongs to; null for account, organization and instance events */
  ecosystemId: string | null
  /** The organization, for ecosystem and organization events (team changes); null for account events */
  organizationId: string | null
  /** `<area>.<noun>.<verb>`, e.g. `auth.session.signed_in`, `integrations.webhook.secret_rotated`, `team.member.role_changed` */
  action: string
  target: AuditTarget
  /** Client address (X-Forwarded-For only with TRUST_PROXY=on); null when unknown */
  ip: string | null
  /** User-Agent of the request, at most 512 characters */
  userAgent: string | null
  /** X-Request-Id of the request */
  requestId: string | null
  /** Details of the change: names, kinds, roles, changed key names. Never a secret, token, password or configuration value. */
  metadata: {
    [key: string]: unknown
  }
}

export interface AuditEventPage {
  items: AuditEvent[]
  total: number
  page: number
  pageSize: number
}

/** The routes under /system. */
export interface SystemRoutes {
  backups: ((params: { id: string | number }) => {
    /** Delete a backup */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    download: {
      /** Download a complete backup */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: string; 302: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 410: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** Back up this instance now */
    post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 202: SystemBackup; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Backups, newest first */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: SystemBackupPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    settings: {
      /** How this instance backs up */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: SystemBackupSettings; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    }
  }
}

/** The routes under /settings. */
export interface SettingsRoutes {
  "auth-methods": ((params: { method: string | number }) => {
    /** Enable or disable a sign-in method (admin) */
    put(body: AuthMethodSettingUpdate, options?: RequestOptions<never>): Promise<Result<{ 200: AuthMethodSetting; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Platform sign-in methods and whether each is enabled */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: AuthMethodSetting[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
}

/** The routes under /audit. */
export interface AuditRoutes {
  events: {
    /** The audit log: administrative changes and security events */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; actor?: string; action?: string; targetType?: string; targetId?: string; from?: string; to?: string }>): Promise<Result<{ 200: AuditEventPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
