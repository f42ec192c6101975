import { errorCatalogue } from '../../platform/errors'

/** The error codes the system area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const SYSTEM_ERRORS = {
  backup_unavailable: 'the database is PostgreSQL and pg_dump is not on the server’s PATH: back it up with your provider’s snapshots',
  backup_in_progress: 'a backup is still running: one at a time (follow it in the list)',
  backup_not_ready: 'the backup is still running, or failed',
  backup_missing: 'the backup completed, and its archive is gone since (deleted or pruned outside the service)',
} as const

/** `systemError(status, code, message)` throws only platform or system codes; `errors(...)` lists them on routes. */
export const { error: systemError, errors } = errorCatalogue(SYSTEM_ERRORS)

/** Why `GET /health/ready` answers 503 (code → meaning): its body's `error.code`, the first failing check in this order. */
export const NOT_READY = {
  draining: 'the server is stopping (SIGTERM): it finishes what it has and takes nothing new',
  database_unavailable: 'the database does not answer',
  database_stalled: 'a database statement has waited longer than DB_STALL_SECONDS (the server log names what holds the connection)',
  migrations_pending: 'the database lacks migrations this version needs (`npx ecobase migrate`)',
  queue_stopped: 'the job queue is not running: jobs cannot be enqueued',
} as const
export type NotReadyCode = keyof typeof NOT_READY
