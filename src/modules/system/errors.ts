import { errorCatalogue } from '../../platform/errors'

/** The error codes the system area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const SYSTEM_ERRORS = {
  backup_unavailable: 'the database is PostgreSQL: it is backed up with its own tools (pg_dump, provider snapshots)',
  backup_not_ready: 'the backup is still running, or failed',
} as const

/** `systemError(status, code, message)` throws only platform or system codes; `errors(...)` lists them on routes. */
export const { error: systemError, errors } = errorCatalogue(SYSTEM_ERRORS)
