import { errorCatalogue } from '../../platform/errors'

/** The error codes the audit area answers besides the platform's: none yet (code → meaning, shown in the OpenAPI document). */
export const AUDIT_ERRORS = {} as const

/** `auditError(status, code, message)` throws only platform or audit codes; `errors(...)` lists them on routes. */
export const { error: auditError, errors } = errorCatalogue(AUDIT_ERRORS)
