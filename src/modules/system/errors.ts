import { errorCatalogue } from '../../platform/errors'

/** The error codes the system area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const SYSTEM_ERRORS = {
  backup_unavailable: 'the database is PostgreSQL and pg_dump is not on the server’s PATH: back it up with your provider’s snapshots',
  backup_not_ready: 'the backup is still running, or failed',
  backup_missing: 'the backup completed, and its archive is gone since (deleted or pruned outside the service)',
} as const

/** `systemError(status, code, message)` throws only platform or system codes; `errors(...)` lists them on routes. */
export const { error: systemError, errors } = errorCatalogue(SYSTEM_ERRORS)
